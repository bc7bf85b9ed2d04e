# Installation: headers, libhipdnn_backend, the example engine plugin, and one CMake config
# package per component (hipdnn_data_sdk, hipdnn_plugin_sdk, hipdnn_test_sdk, hipdnn_backend,
# hipdnn_frontend with the targets hipdnn_frontend and hipdnn_frontend_dynamic). Everything is in
# the install component "hipdnn": cmake --install <build> --component hipdnn --prefix <dir>.
# The build tree is a usable package too: <build>/lib/cmake/<package>.
include(CMakePackageConfigHelpers)

set(_hipdnn_cmake_install_dir ${CMAKE_INSTALL_LIBDIR}/cmake)
set(_hipdnn_inc ${HIPDNN_STAGED_INCLUDE_DIR})

install(DIRECTORY
    ${_hipdnn_inc}/hipdnn_data_sdk ${_hipdnn_inc}/hipdnn_plugin_sdk ${_hipdnn_inc}/hipdnn_test_sdk
    ${_hipdnn_inc}/hipdnn_frontend ${_hipdnn_inc}/hipdnn_backend
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT hipdnn)
file(GLOB _hipdnn_backend_headers RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/backend/include
  ${CMAKE_CURRENT_SOURCE_DIR}/backend/include/*.h)
list(TRANSFORM _hipdnn_backend_headers PREPEND ${_hipdnn_inc}/)
install(FILES ${_hipdnn_backend_headers} ${_hipdnn_inc}/hipdnn_backend_export.h ${_hipdnn_inc}/hipdnn_frontend.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT hipdnn)

install(TARGETS hipdnn_backend EXPORT hipdnn_backend-targets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT hipdnn)

# package name ; targets ; dependencies (package names)
function(hipdnn_export_package package targets dependencies)
  install(TARGETS ${targets} EXPORT ${package}-targets COMPONENT hipdnn)
  install(EXPORT ${package}-targets NAMESPACE ${package}:: DESTINATION ${_hipdnn_cmake_install_dir}/${package}
    COMPONENT hipdnn)
  export(EXPORT ${package}-targets NAMESPACE ${package}::
    FILE ${PROJECT_BINARY_DIR}/lib/cmake/${package}/${package}-targets.cmake)
  set(HIPDNN_PACKAGE_NAME ${package})
  set(HIPDNN_PACKAGE_DEPENDENCIES ${dependencies})
  configure_package_config_file(${HIPDNN_CMAKE_DIR}/hipdnn-package-config.cmake.in
    ${PROJECT_BINARY_DIR}/lib/cmake/${package}/${package}-config.cmake
    INSTALL_DESTINATION ${_hipdnn_cmake_install_dir}/${package})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/lib/cmake/${package}/${package}-config-version.cmake
    VERSION ${HIPDNN_VERSION} COMPATIBILITY SameMajorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/${package}/${package}-config.cmake
    ${PROJECT_BINARY_DIR}/lib/cmake/${package}/${package}-config-version.cmake
    DESTINATION ${_hipdnn_cmake_install_dir}/${package} COMPONENT hipdnn)
endfunction()

hipdnn_export_package(hipdnn_data_sdk "hipdnn_data_sdk" "Threads")
hipdnn_export_package(hipdnn_plugin_sdk "hipdnn_plugin_sdk" "hipdnn_data_sdk")
hipdnn_export_package(hipdnn_test_sdk "hipdnn_test_sdk" "hipdnn_plugin_sdk")
# hipdnn_backend: the shared library and its headers.
install(TARGETS hipdnn_backend_headers EXPORT hipdnn_backend-targets COMPONENT hipdnn)
install(EXPORT hipdnn_backend-targets NAMESPACE hipdnn_backend:: DESTINATION ${_hipdnn_cmake_install_dir}/hipdnn_backend
  COMPONENT hipdnn)
export(EXPORT hipdnn_backend-targets NAMESPACE hipdnn_backend::
  FILE ${PROJECT_BINARY_DIR}/lib/cmake/hipdnn_backend/hipdnn_backend-targets.cmake)
set(HIPDNN_PACKAGE_NAME hipdnn_backend)
set(HIPDNN_PACKAGE_DEPENDENCIES "")
configure_package_config_file(${HIPDNN_CMAKE_DIR}/hipdnn-package-config.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/hipdnn_backend/hipdnn_backend-config.cmake
  INSTALL_DESTINATION ${_hipdnn_cmake_install_dir}/hipdnn_backend)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/lib/cmake/hipdnn_backend/hipdnn_backend-config-version.cmake
  VERSION ${HIPDNN_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/hipdnn_backend/hipdnn_backend-config.cmake
  ${PROJECT_BINARY_DIR}/lib/cmake/hipdnn_backend/hipdnn_backend-config-version.cmake
  DESTINATION ${_hipdnn_cmake_install_dir}/hipdnn_backend COMPONENT hipdnn)
# hipdnn_frontend: targets hipdnn_frontend (direct link) and hipdnn_frontend_dynamic (run-time load).
hipdnn_export_package(hipdnn_frontend "hipdnn_frontend;hipdnn_frontend_dynamic;hipdnn_frontend_headers"
  "hipdnn_data_sdk;hipdnn_backend")
# hipdnn_frontend_dynamic: a package of its own for consumers that must not see the backend target.
set(HIPDNN_PACKAGE_NAME hipdnn_frontend_dynamic)
configure_file(${HIPDNN_CMAKE_DIR}/hipdnn_frontend_dynamic-config.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/hipdnn_frontend_dynamic/hipdnn_frontend_dynamic-config.cmake @ONLY)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/hipdnn_frontend_dynamic/hipdnn_frontend_dynamic-config-version.cmake
  VERSION ${HIPDNN_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/hipdnn_frontend_dynamic/hipdnn_frontend_dynamic-config.cmake
  ${PROJECT_BINARY_DIR}/lib/cmake/hipdnn_frontend_dynamic/hipdnn_frontend_dynamic-config-version.cmake
  DESTINATION ${_hipdnn_cmake_install_dir}/hipdnn_frontend_dynamic COMPONENT hipdnn)

# ctest: install the component into a scratch prefix, then configure, build and run a consumer
# (a conv graph through the installed frontend, backend and example plugin).
if(BUILD_TESTING)
  add_test(NAME hipdnn_install_consumer
    COMMAND ${CMAKE_COMMAND}
      -DBUILD_DIR=${PROJECT_BINARY_DIR}
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/install_consumer
      -DCONSUMER_SOURCE=${CMAKE_CURRENT_SOURCE_DIR}/tests/install_consumer
      -DCXX=${CMAKE_CXX_COMPILER}
      -P ${HIPDNN_CMAKE_DIR}/RunInstallConsumer.cmake)
  set_tests_properties(hipdnn_install_consumer PROPERTIES TIMEOUT 600)
endif()
