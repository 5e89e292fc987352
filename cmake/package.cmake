# The CMake package: ode_accuracy_harness-config.cmake with its version file and the exported, namespaced targets,
# so that another project's find_package(ode_accuracy_harness CONFIG REQUIRED) finds them in an installed tree.
include(CMakePackageConfigHelpers)
install(EXPORT ode_accuracy_harness_targets NAMESPACE ode_accuracy_harness:: DESTINATION ${HARNESS_CMAKE_DIR}
        FILE ode_accuracy_harness-targets.cmake)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ode_accuracy_harness-config.cmake.in
                              ${PROJECT_BINARY_DIR}/ode_accuracy_harness-config.cmake
                              INSTALL_DESTINATION ${HARNESS_CMAKE_DIR} PATH_VARS HARNESS_DATA_DIR HARNESS_INCLUDE_DIR)
# 0.MINOR.PATCH: before 1.0 a new minor version may change the API, so only the same minor version is compatible
# (docs/install.md, "Versions").
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ode_accuracy_harness-config-version.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ode_accuracy_harness-config.cmake ${PROJECT_BINARY_DIR}/ode_accuracy_harness-config-version.cmake
        DESTINATION ${HARNESS_CMAKE_DIR})
