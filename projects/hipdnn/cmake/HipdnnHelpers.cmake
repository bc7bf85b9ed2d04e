# Helpers shared by the hipDNN components.

# Stage every header below src_dir under <build>/include with the same relative path, exactly as
# it is installed. configure_file records each header as a configure dependency, so editing one
# re-stages it on the next build.
function(hipdnn_stage_headers src_dir)
  file(GLOB_RECURSE _headers RELATIVE ${src_dir} CONFIGURE_DEPENDS
    ${src_dir}/*.h ${src_dir}/*.hpp ${src_dir}/*.inl)
  foreach(_h IN LISTS _headers)
    configure_file(${src_dir}/${_h} ${HIPDNN_STAGED_INCLUDE_DIR}/${_h} COPYONLY)
  endforeach()
endfunction()

# Generate <component>/version.h with <PREFIX>_VERSION_{MAJOR,MINOR,PATCH,TWEAK,STRING}.
function(hipdnn_generate_version_header component prefix)
  set(HIPDNN_COMPONENT_PREFIX ${prefix})
  configure_file(${HIPDNN_CMAKE_DIR}/version.h.in
    ${HIPDNN_STAGED_INCLUDE_DIR}/${component}/version.h @ONLY)
endfunction()

# Our own compiled targets: the project's warnings (-Werror) and hidden visibility.
function(hipdnn_configure_target target)
  project_set_warnings(${target})
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
endfunction()

# hipdnn_add_engine_plugin(<target> <output dir> [PLUGIN_HEADER <header> PLUGIN_CLASS <class>]
#                          [sources...])
# An engine plugin: a MODULE library written to <output dir> with hidden visibility and no leaked
# static dependencies, loaded with dlopen(RTLD_NOW) by the backend. With PLUGIN_HEADER/PLUGIN_CLASS its C entry points are generated from
# cmake/EnginePluginApi.cpp.in, each a one-line shim over the plugin SDK calling
# <class>::instance() (declared in <header>); without them the sources define the entry points
# themselves (the test plugins, which deliberately break the ABI in different ways).
function(hipdnn_add_engine_plugin target output_dir)
  cmake_parse_arguments(ARG "" "PLUGIN_HEADER;PLUGIN_CLASS" "" ${ARGN})
  set(_api "")
  if(ARG_PLUGIN_HEADER OR ARG_PLUGIN_CLASS)
    if(NOT ARG_PLUGIN_HEADER OR NOT ARG_PLUGIN_CLASS)
      message(FATAL_ERROR "hipdnn_add_engine_plugin(${target}): give both PLUGIN_HEADER and PLUGIN_CLASS")
    endif()
    get_filename_component(HIPDNN_PLUGIN_HEADER ${ARG_PLUGIN_HEADER} ABSOLUTE)
    set(HIPDNN_PLUGIN_CLASS ${ARG_PLUGIN_CLASS})
    set(_api ${CMAKE_CURRENT_BINARY_DIR}/${target}_EnginePluginApi.cpp)
    configure_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EnginePluginApi.cpp.in ${_api} @ONLY)
  endif()
  add_library(${target} MODULE ${_api} ${ARG_UNPARSED_ARGUMENTS})
  hipdnn_configure_target(${target})
  target_link_libraries(${target} PRIVATE hipdnn_plugin_sdk)
  target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL -Wl,--no-undefined
    -Wl,--version-script=${HIPDNN_CMAKE_DIR}/hipdnn_plugin.map)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${HIPDNN_CMAKE_DIR}/hipdnn_plugin.map)
  set_target_properties(${target} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${output_dir}
    PREFIX "lib")
endfunction()
