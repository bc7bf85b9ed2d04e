# PROJECT_SANITIZE="address;undefined" or "thread": applied to every target of the project.
if(PROJECT_SANITIZE)
  string(REPLACE ";" "," _san "${PROJECT_SANITIZE}")
  add_compile_options(-fsanitize=${_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_san})
  message(STATUS "Sanitizers: ${_san}")
endif()
