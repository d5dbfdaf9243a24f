# Launch specs (issue 7). Paths are relative to tests/.
list(APPEND GPUADVISOR_TEST_SOURCES
  launch/launch_test.cc
)

# End to end: exit codes, formats, --out, --from-plan, Terraform structure (always runs).
add_test(NAME cli_launch
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/launch_test.sh $<TARGET_FILE:gpuadvisor>)
set_tests_properties(cli_launch PROPERTIES LABELS integration)

# Validators from the image's Python (botocore, cfn-lint): exit 77 = SKIP when missing.
# Label "python-tools" so stages without them can leave them out (ctest -LE python-tools).
find_program(GPUADVISOR_PYTHON3 python3)
add_test(NAME launch_botocore_validate
  COMMAND ${GPUADVISOR_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/launch/validate_aws_cli.py
          $<TARGET_FILE:gpuadvisor>)
add_test(NAME launch_cfn_lint
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/launch/cfn_lint_test.sh $<TARGET_FILE:gpuadvisor>)
set_tests_properties(launch_botocore_validate launch_cfn_lint PROPERTIES
  LABELS "integration;python-tools" SKIP_RETURN_CODE 77)
