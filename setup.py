"""`python setup.py build_ext` for those who build with setuptools by hand; `pip install .` uses
the project's own build backend (pyproject.toml: python/_gpuadvisor_build.py), which needs
neither setuptools nor `wheel`. Both build with the project's CMake (_gpuadvisor_build.build_module).
"""
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).resolve().parent / "python"))
import _gpuadvisor_build  # noqa: E402


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        _gpuadvisor_build.build_module(target.parent)


setup(ext_modules=[CMakeExtension("gpuadvisor._core")], cmdclass={"build_ext": CMakeBuild})
