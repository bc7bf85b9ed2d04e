# find_package(hip) against hip_host: installs the libhip_host components into a fresh prefix,
# checks that nothing there answers find_package(hip) unless asked (no <prefix>/lib/cmake/hip,
# no <prefix>/include/hip: a ROCm install is never shadowed), then configures, builds and runs the
# consumer project against the install's hip-prefix and against the build tree's.
# cmake -DBUILD=<build dir> -DSRC=<this dir> -DWORK=<scratch> -DCC=<c compiler> -DCXX=<c++ compiler> -P run.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
set(hip_prefix_rel share/hip_host/hip-prefix)

macro(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endmacro()

foreach(component libhip_host libhip_host_dev)
  run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix} --component ${component})
endforeach()
foreach(f include/hip_host/hip/hip_runtime.h include/hip_host/hip/hip_runtime_api.h include/hip_host/hip/hip_version.h
          lib/libhip_host.so.1 lib/cmake/hip_host/hip_host-config.cmake
          ${hip_prefix_rel}/lib/cmake/hip/hip-config.cmake ${hip_prefix_rel}/lib/cmake/hip/hip-config-version.cmake)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "missing from the install: ${f}")
  endif()
endforeach()
# The only hip-config.cmake is the one in the opt-in prefix.
file(GLOB_RECURSE configs RELATIVE ${prefix} ${prefix}/*hip-config.cmake ${prefix}/*hipConfig.cmake)
if(NOT configs STREQUAL "${hip_prefix_rel}/lib/cmake/hip/hip-config.cmake")
  message(FATAL_ERROR "hip package files outside ${hip_prefix_rel}: ${configs}")
endif()
if(EXISTS ${prefix}/include/hip OR EXISTS ${prefix}/lib/cmake/hip OR EXISTS ${prefix}/lib/libamdhip64.so)
  message(FATAL_ERROR "hip_host installed where it would shadow a ROCm install")
endif()

set(compilers -DCMAKE_C_COMPILER=${CC} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)

# Not asked for: the install prefix itself does not answer find_package(hip) (a ROCm install on
# this machine may; it must not be ours).
run(${CMAKE_COMMAND} -S ${SRC} -B ${WORK}/probe -DHIP_PROBE_ONLY=ON -DCMAKE_PREFIX_PATH=${prefix} ${compilers})
if(out MATCHES "hip probe: found=(1|TRUE|ON)[^\n]*dir=${prefix}")
  message(FATAL_ERROR "find_package(hip) found hip_host without being pointed at its hip-prefix:\n${out}")
endif()

# Asked for, from the install and from the build tree.
foreach(tree install build)
  if(tree STREQUAL "install")
    set(root ${prefix})
  else()
    set(root ${BUILD})
  endif()
  set(bin ${WORK}/build-${tree})
  run(${CMAKE_COMMAND} -S ${SRC} -B ${bin} -DCMAKE_PREFIX_PATH=${root}/${hip_prefix_rel} ${compilers})
  message(STATUS "[${tree}] ${out}")
  run(${CMAKE_COMMAND} --build ${bin})
  foreach(exe consumer_host consumer_device consumer_c)
    run(${bin}/${exe})
    if(NOT out MATCHES "PASSED")
      message(FATAL_ERROR "[${tree}] ${exe} did not pass:\n${out}")
    endif()
    message(STATUS "[${tree}] ${exe}: ${out}")
    # It ran on the library of that tree.
    run(ldd ${bin}/${exe})
    if(NOT out MATCHES "${root}/lib/libhip_host\\.so\\.1")
      message(FATAL_ERROR "[${tree}] ${exe} does not resolve ${root}/lib/libhip_host.so.1:\n${out}")
    endif()
  endforeach()
endforeach()
