"""What the tests that run the real AWS CLI against a local fake AWS share: why they cannot run
here ("" when they can), how a fake is started, and the environment that keeps the user's own AWS
settings out of a test."""
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def missing():
    try:
        import moto  # noqa: F401
    except ImportError:
        return "python3 has no moto (pip install moto[server])"
    if shutil.which("aws") is None:
        return "no AWS CLI (`aws`) on PATH"
    return ""


def start(tmp, name, args):
    """Starts tests/cli/NAME.py with a port file (args(portfile) its arguments); returns
    (process, base URL), or (process, None) when it did not start (its log is tmp/NAME.log)."""
    portfile = os.path.join(tmp, name + ".port")
    log = open(os.path.join(tmp, name + ".log"), "w")
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, name + ".py"), *args(portfile)],
                            stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(600):
        if os.path.exists(portfile) or proc.poll() is not None:
            break
        time.sleep(0.1)
    if not os.path.exists(portfile):
        return proc, None
    return proc, "http://127.0.0.1:" + open(portfile).read().strip()


def clean_env(tmp, today):
    """The environment for gpuadvisor and the AWS CLI in a test: fake keys, no config, profile,
    region, session or proxy of the user's, the user catalog under tmp/xdg, the day pinned, and
    one try per AWS call (a throttled call fails at once)."""
    env = dict(os.environ, AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing",
               AWS_CONFIG_FILE=os.path.join(tmp, "none"),
               AWS_SHARED_CREDENTIALS_FILE=os.path.join(tmp, "none"), HOME=tmp,
               XDG_DATA_HOME=os.path.join(tmp, "xdg"), GPUADVISOR_TODAY=today,
               AWS_MAX_ATTEMPTS="1")
    for k in ("AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_SESSION_TOKEN",
              "GPUADVISOR_CATALOG", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY",
              "ALL_PROXY", "all_proxy"):
        env.pop(k, None)
    return env
