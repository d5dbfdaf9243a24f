"""Builds gpuadvisor._core with the project's CMake (pyproject.toml holds the metadata).

CMAKE_BUILD_PARALLEL_LEVEL sets the build jobs (default 2); GPUADVISOR_CMAKE_ARGS adds
arguments to the configure step.
"""
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        build = Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DGPUADVISOR_BUILD_TESTS=OFF", "-DGPUADVISOR_BUILD_PYTHON=ON",
                     f"-DPython3_EXECUTABLE={sys.executable}"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("GPUADVISOR_CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(["cmake", "--build", str(build), "--target", "gpuadvisor_python", "-j", jobs],
                       check=True)
        built = next((build / "python" / "gpuadvisor").glob("_core*" + Path(target).suffix))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        # `serve` runs the server program shipped beside the module (the module links none).
        server = target.parent / "gpuadvisor-serve"
        shutil.copyfile(build / "python" / "gpuadvisor" / "gpuadvisor-serve", server)
        server.chmod(0o755)


setup(ext_modules=[CMakeExtension("gpuadvisor._core")], cmdclass={"build_ext": CMakeBuild})
