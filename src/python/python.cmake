# The Python module `gpuadvisor` (pybind11): src/python/module.cc is the compiled part
# (gpuadvisor._core), python/gpuadvisor/ the pure-Python package around it. Built by default when
# the system Python's headers and Debian's pybind11 are found; never with the sanitizers or the
# fuzz build (a Python interpreter would need the ASan runtime preloaded).
# The build tree's python/ directory is importable: PYTHONPATH=<build>/python.
set(GPUADVISOR_PYTHON_DEFAULT OFF)
if(NOT GPUADVISOR_SANITIZE AND NOT GPUADVISOR_BUILD_FUZZ)
  # The system interpreter, not the first python3 on PATH (pyenv's has no headers matching
  # Debian's pybind11). Override with -DPython3_EXECUTABLE=...
  if(NOT Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python interpreter for the module")
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
  if(Python3_FOUND)
    find_package(pybind11 2.6 CONFIG QUIET)
    if(pybind11_FOUND)
      set(GPUADVISOR_PYTHON_DEFAULT ON)
    endif()
  endif()
endif()
option(GPUADVISOR_BUILD_PYTHON "Build the Python module (needs Python 3 headers and pybind11)"
       ${GPUADVISOR_PYTHON_DEFAULT})

if(GPUADVISOR_BUILD_PYTHON)
  if(NOT pybind11_FOUND)
    message(FATAL_ERROR "GPUADVISOR_BUILD_PYTHON: Python 3 development headers and pybind11 not "
                        "found (apt-get install python3-dev pybind11-dev)")
  endif()
  set(GPUADVISOR_PYTHON_DIR ${CMAKE_BINARY_DIR}/python/gpuadvisor)
  # NO_EXTRAS: no LTO (slow links on small machines); visibility set below.
  pybind11_add_module(gpuadvisor_python MODULE NO_EXTRAS src/python/module.cc)
  set_target_properties(gpuadvisor_python PROPERTIES
    OUTPUT_NAME _core
    LIBRARY_OUTPUT_DIRECTORY ${GPUADVISOR_PYTHON_DIR}
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_compile_options(gpuadvisor_python PRIVATE ${GPUADVISOR_WARNINGS})
  # The CLI without the server: `serve` execs gpuadvisor-serve from the package directory
  # (serve_exec.cc with serve_dir.cc), so the module loads no Boost.Asio and no OpenSSL
  # (tests/python/test_gpuadvisor.py checks its dynamic dependencies).
  target_sources(gpuadvisor_python PRIVATE src/cli/serve_exec.cc src/python/serve_dir.cc)
  target_link_libraries(gpuadvisor_python PRIVATE gpuadvisor_cli ${CMAKE_DL_LIBS})
  add_dependencies(gpuadvisor_python gpuadvisor-serve)
  add_custom_command(TARGET gpuadvisor_python POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:gpuadvisor-serve>
            ${GPUADVISOR_PYTHON_DIR}/gpuadvisor-serve)
  # The package directory never exists without its __init__.py: an empty directory on
  # PYTHONPATH imports as a namespace package, and `gpuadvisor.recommend` then fails far from the
  # cause. __init__.py itself fails with a clear ImportError while _core is not built yet.
  if(NOT EXISTS ${GPUADVISOR_PYTHON_DIR}/__init__.py)
    file(COPY ${CMAKE_SOURCE_DIR}/python/gpuadvisor/__init__.py DESTINATION ${GPUADVISOR_PYTHON_DIR})
  endif()
  # The pure-Python files next to the compiled module, refreshed on every build.
  set(GPUADVISOR_PYTHON_FILES __init__.py __main__.py _core.pyi py.typed)
  set(copied)
  foreach(f ${GPUADVISOR_PYTHON_FILES})
    add_custom_command(OUTPUT ${GPUADVISOR_PYTHON_DIR}/${f}
      COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/python/gpuadvisor/${f}
              ${GPUADVISOR_PYTHON_DIR}/${f}
      DEPENDS ${CMAKE_SOURCE_DIR}/python/gpuadvisor/${f})
    list(APPEND copied ${GPUADVISOR_PYTHON_DIR}/${f})
  endforeach()
  add_custom_target(gpuadvisor_python_files ALL DEPENDS ${copied})
  add_dependencies(gpuadvisor_python gpuadvisor_python_files)
endif()
