"""Shared fixtures: the module from the build tree (PYTHONPATH) and the CLI binary to compare with.

ctest sets GPUADVISOR_PYTHON_REQUIRED=1 (the module was built, so failing to import it is a
failure); run by hand without it, the tests skip when the module is not importable.
"""
import json
import os
import re
import shutil
import subprocess

import pytest

try:
    import gpuadvisor  # noqa: F401
    IMPORT_ERROR = None
except ImportError as exc:  # pragma: no cover
    IMPORT_ERROR = exc


def pytest_collection_modifyitems(config, items):
    if IMPORT_ERROR is None:
        return
    if os.environ.get("GPUADVISOR_PYTHON_REQUIRED") == "1":
        raise pytest.UsageError(f"gpuadvisor module not importable: {IMPORT_ERROR}")
    skip = pytest.mark.skip(reason=f"gpuadvisor module not built/importable: {IMPORT_ERROR}")
    for item in items:
        item.add_marker(skip)


@pytest.fixture(scope="session")
def cli_path():
    path = os.environ.get("GPUADVISOR_CLI") or shutil.which("gpuadvisor")
    if not path:
        pytest.skip("GPUADVISOR_CLI (the gpuadvisor binary) not set")
    return path


@pytest.fixture(scope="session")
def cli_json(cli_path):
    """Runs the CLI with --json and returns (parsed stdout, exit code)."""

    def run(*args, ok_codes=(0,)):
        proc = subprocess.run([cli_path, *args, "--json"], capture_output=True, text=True,
                              check=False)
        assert proc.returncode in ok_codes, proc.stderr
        return json.loads(proc.stdout)

    return run


@pytest.fixture(scope="session")
def cli_error(cli_path):
    """Runs the CLI expecting a failure; returns (stderr message without the prefix, exit code),
    the message as Python spells it: the CLI's leading "--min-gpus:" is "min_gpus:" there."""

    def run(*args):
        proc = subprocess.run([cli_path, *args], capture_output=True, text=True, check=False)
        assert proc.returncode != 0
        line = proc.stderr.strip().splitlines()[-1]
        assert line.startswith("gpuadvisor: ")
        message = line[len("gpuadvisor: "):]
        flag = re.match(r"--([a-z0-9-]+):", message)
        if flag:
            message = flag.group(1).replace("-", "_") + message[flag.end() - 1:]
        return message, proc.returncode

    return run
