"""What the tests that run the real AWS CLI against a local fake AWS need (moto for the calls it
implements, the `aws` program itself): why they cannot run here, or "" when they can."""
import shutil


def missing():
    try:
        import moto  # noqa: F401
    except ImportError:
        return "python3 has no moto (pip install moto[server])"
    if shutil.which("aws") is None:
        return "no AWS CLI (`aws`) on PATH"
    return ""
