"""Security issue, input validation, finding 8: the Python front end raises its own typed errors
naming the argument for a wrong argument type or an unencodable string, and the package cannot
be imported half-built (without its compiled extension)."""
import os
import shutil
import subprocess
import sys

import pytest

import gpuadvisor as ga


def test_recommend_and_estimate_take_a_workload_only():
    for fn in (ga.recommend, ga.estimate):
        with pytest.raises(ga.InvalidArgument) as err:
            fn("serve llama")
        assert err.value.field == "workload"
        assert err.value.code == "invalid_argument"
        assert str(err.value).startswith("workload: expected a gpuadvisor.Workload")
        assert "got str 'serve llama'" in str(err.value)
    with pytest.raises(ga.InvalidArgument) as err:
        ga.catalog().recommend({"task": "serve"})
    assert err.value.field == "workload"
    assert "got dict" in str(err.value)
    # Still an Error and a ValueError, never an AttributeError.
    assert issubclass(ga.InvalidArgument, ga.Error) and issubclass(ga.InvalidArgument, ValueError)


@pytest.mark.parametrize("call, field", [
    (lambda: ga.Workload(task="serve", model="llama\ud800"), "model"),
    (lambda: ga.Workload(task="serve", model="llama-3.1-8b", tokens="\udcff"), "tokens"),
    (lambda: ga.recommend(ga.Workload(task="serve", model="llama-3.1-8b"), region="us\ud800"),
     "region"),
    (lambda: ga.recommend(ga.Workload(task="serve", model="llama-3.1-8b"),
                          regions=["us-east-1", "\ud800"]), "regions"),
    (lambda: ga.catalog().instances(gpu="H100\ud800"), "gpu"),
    (lambda: ga.catalog().show("p5.48xlarge\ud800"), "instance_type"),
    (lambda: ga.pricing("p5.48xlarge", region="\ud800"), "region"),
    (lambda: ga.Catalog("/tmp/\ud800.json"), "path"),
    (lambda: ga.Workload.from_yaml("/tmp/\ud800.yaml"), "path"),
    (lambda: ga.idle(["/tmp/\ud800.csv"]), "paths"),
    (lambda: ga.main(["instances", "--gpu", "\ud800"]), "argv"),
])
def test_lone_surrogates_raise_invalid_argument_naming_the_argument(call, field):
    with pytest.raises(ga.InvalidArgument) as err:
        call()
    assert err.value.field == field
    assert "expected text encodable as UTF-8, got a lone surrogate" in str(err.value)
    assert str(err.value).startswith(field + ": ")


def test_valid_text_still_works():
    rec = ga.recommend(ga.Workload(task="serve", model="llama-3.1-8b"), top=1,
                       regions=["us-east-1"])
    assert len(rec.plans) == 1
    assert ga.catalog().instances(gpu="H100")


def test_the_package_cannot_be_imported_half_built(tmp_path):
    # The package's pure-Python part without the compiled _core: a clear ImportError naming the
    # missing extension and how to build it, not a package that imports and fails later.
    package = os.path.dirname(ga.__file__)
    half = tmp_path / "gpuadvisor"
    half.mkdir()
    shutil.copy(os.path.join(package, "__init__.py"), half / "__init__.py")
    proc = subprocess.run([sys.executable, "-c", "import gpuadvisor"], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(tmp_path)}, check=False)
    assert proc.returncode != 0
    assert "ImportError: gpuadvisor: the compiled extension gpuadvisor._core is missing" \
        in proc.stderr, proc.stderr
    assert "--target gpuadvisor_python" in proc.stderr


def test_the_build_tree_package_is_a_regular_package():
    # An empty directory would import as a namespace package (no __file__); the build writes
    # __init__.py when it configures, before anything else is in the directory.
    assert ga.__file__ is not None
    assert os.path.basename(ga.__file__) == "__init__.py"
