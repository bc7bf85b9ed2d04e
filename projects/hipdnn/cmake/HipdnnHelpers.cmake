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

# An engine plugin: a MODULE library written to <build>/lib/<subdir> with hidden visibility and
# no leaked static dependencies, loaded with dlopen(RTLD_NOW) by the backend.
function(hipdnn_add_engine_plugin target output_dir)
  add_library(${target} MODULE ${ARGN})
  hipdnn_configure_target(${target})
  target_link_libraries(${target} PRIVATE hipdnn_plugin_sdk)
  target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL -Wl,--no-undefined
    -Wl,--version-script=${HIPDNN_CMAKE_DIR}/hipdnn_plugin.map)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${HIPDNN_CMAKE_DIR}/hipdnn_plugin.map)
  set_target_properties(${target} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${output_dir}
    PREFIX "lib")
endfunction()
