"""The PEP 517 build backend of `pip install .` (pyproject.toml, backend-path "python").

It builds gpuadvisor._core and the gpuadvisor-serve program with the project's CMake and writes
the wheel itself (a zip with METADATA, WHEEL, RECORD), so the install needs no setuptools and no
`wheel` package: any Python 3.9+ with its headers (pyenv's, a venv's, Debian's), offline, with or
without build isolation. Before, setuptools.build_meta failed at once on a Python without `wheel`
("invalid command 'bdist_wheel'", pyenv's python3 among them).

CMAKE_BUILD_PARALLEL_LEVEL sets the build jobs (default: the CPUs); GPUADVISOR_CMAKE_ARGS adds
arguments to the configure step (-DCMAKE_CXX_COMPILER_LAUNCHER=ccache, ...).
"""
import base64
import hashlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What a wheel holds of the package: the Python files CMake copies next to the compiled module.
PACKAGE_FILES = ("__init__.py", "__main__.py", "_core.pyi", "py.typed")


def _project():
    """pyproject.toml's [project] table: tomllib where Python has it (3.11), else the few
    forms this file uses (key = "text", key = ["a", "b"], [project.x] tables)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib  # noqa: WPS433  (3.11+)
        return tomllib.loads(text)["project"]
    except ImportError:
        pass
    tables, table = {}, None
    for line in text.splitlines():
        line = line.split(" #")[0].strip()
        if not line or line.startswith("#"):
            continue
        head = re.fullmatch(r"\[([^\]]+)\]", line)
        if head:
            table = tables.setdefault(head.group(1).strip(), {})
            continue
        key, _, value = (part.strip() for part in line.partition("="))
        if table is None or not value:
            continue
        key = key.strip('"')
        if value.startswith("["):
            table[key] = re.findall(r'"([^"]*)"', value)
        elif value.startswith('"'):
            table[key] = value[1:-1]
    project = tables.get("project", {})
    for name, sub in tables.items():
        if name.startswith("project."):
            project[name[len("project."):]] = sub
    return project


def _names():
    project = _project()
    return project["name"], project["version"]


def _tag():
    """cp311-cp311-linux_x86_64: the compiled module is for this interpreter and platform."""
    interpreter = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    if sys.implementation.name != "cpython":
        interpreter = f"{sys.implementation.name[:2]}{sys.version_info[0]}{sys.version_info[1]}"
    platform = re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())
    return f"{interpreter}-{interpreter}-{platform}"


def _metadata():
    project = _project()
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}",
             f"Summary: {project.get('description', '')}"]
    if project.get("requires-python"):
        lines.append(f"Requires-Python: {project['requires-python']}")
    for extra, deps in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {d}; extra == "{extra}"' for d in deps]
    readme = project.get("readme")
    body = ""
    if isinstance(readme, str) and (ROOT / readme).exists():
        lines.append("Description-Content-Type: text/markdown")
        body = "\n" + (ROOT / readme).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n" + body


def _entry_points():
    scripts = _project().get("scripts", {})
    if not scripts:
        return ""
    return "[console_scripts]\n" + "".join(f"{k} = {v}\n" for k, v in scripts.items())


def _build_module(build):
    """Configures and builds the module with CMake in `build`; returns the package directory."""
    configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                 "-DGPUADVISOR_BUILD_TESTS=OFF", "-DGPUADVISOR_BUILD_PYTHON=ON",
                 f"-DPython3_EXECUTABLE={sys.executable}"]
    if shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    configure += shlex.split(os.environ.get("GPUADVISOR_CMAKE_ARGS", ""))
    subprocess.run(configure, check=True, stdout=sys.stderr)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    subprocess.run(["cmake", "--build", str(build), "--target", "gpuadvisor_python", "-j", jobs],
                   check=True, stdout=sys.stderr)
    return build / "python" / "gpuadvisor"


def build_module(target_dir):
    """Builds the module and copies it, the server program and the package files into
    `target_dir` (setup.py's build_ext uses this too)."""
    # Kept between installs (a reinstall rebuilds what changed), one per source tree and Python.
    where = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    build = (Path(tempfile.gettempdir()) /
             f"gpuadvisor-build-{where}-{sys.version_info[0]}{sys.version_info[1]}")
    built = _build_module(build)
    target_dir = Path(target_dir)
    target_dir.mkdir(parents=True, exist_ok=True)
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    core = next(built.glob("_core*" + suffix), None) or next(built.glob("_core*.so"))
    shutil.copyfile(core, target_dir / core.name)
    # `serve` runs the server program shipped beside the module (the module links none).
    shutil.copyfile(built / "gpuadvisor-serve", target_dir / "gpuadvisor-serve")
    (target_dir / "gpuadvisor-serve").chmod(0o755)
    return core.name


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


# ---- PEP 517 hooks ----------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    name, version = _names()
    info = Path(metadata_directory) / f"{name}-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata(), encoding="utf-8")
    (info / "entry_points.txt").write_text(_entry_points(), encoding="utf-8")
    return info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name, version = _names()
    tag = _tag()
    wheel_name = f"{name}-{version}-{tag}.whl"
    info = f"{name}-{version}.dist-info"
    with tempfile.TemporaryDirectory() as tmp:
        package = Path(tmp) / "gpuadvisor"
        build_module(package)
        for f in PACKAGE_FILES:
            shutil.copyfile(ROOT / "python" / "gpuadvisor" / f, package / f)
        files = []  # (arcname, bytes, executable)
        for path in sorted(package.iterdir()):
            files.append((f"gpuadvisor/{path.name}", path.read_bytes(), os.access(path, os.X_OK)))
        files.append((f"{info}/METADATA", _metadata().encode(), False))
        wheel_text = (f"Wheel-Version: 1.0\nGenerator: gpuadvisor ({Path(__file__).name})\n"
                      f"Root-Is-Purelib: false\nTag: {tag}\n")
        files.append((f"{info}/WHEEL", wheel_text.encode(), False))
        files.append((f"{info}/entry_points.txt", _entry_points().encode(), False))
        files.append((f"{info}/top_level.txt", b"gpuadvisor\n", False))
        record = [_record_line(a, d) for a, d, _ in files] + [f"{info}/RECORD,,"]
        files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode(), False))
        Path(wheel_directory).mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as z:
            for arcname, data, executable in files:
                zi = zipfile.ZipInfo(arcname, date_time=(2026, 1, 1, 0, 0, 0))
                zi.external_attr = (0o755 if executable else 0o644) << 16
                zi.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(zi, data)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """The tracked files (git ls-files; else the tree without build directories) as a .tar.gz."""
    name, version = _names()
    base = f"{name}-{version}"
    try:
        listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], check=True,
                                capture_output=True).stdout.decode().split("\0")
        paths = [p for p in listed if p and (ROOT / p).is_file()]
    except (OSError, subprocess.CalledProcessError):
        paths = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and not any(part.startswith(("build", ".git", "venv"))
                                            for part in p.relative_to(ROOT).parts)]
    Path(sdist_directory).mkdir(parents=True, exist_ok=True)
    out = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / out, "w:gz") as tar:
        for p in sorted(paths):
            tar.add(ROOT / p, arcname=f"{base}/{p}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return out
