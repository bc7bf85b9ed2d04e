# Debian packages of MIOpen (CPack DEB, one package per component): libmiopen (MIOpen Public),
# libmiopen-private (MIOpen Private), and their -dev packages. The two libraries are
# co-versioned: libmiopen depends on exactly its own version of libmiopen-private
# (docs/wrapper.md, "For packagers"). `cpack --config <build>/CPackConfig.cmake` builds them.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME miopen)
set(CPACK_PACKAGE_VENDOR "MIOpen on the CPU")
set(CPACK_PACKAGE_VERSION ${MIOPEN_PACKAGE_VERSION})
set(CPACK_PACKAGE_CONTACT "MIOpen CPU maintainers <maintainers@example.invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_COMPONENTS_ALL libmiopen libmiopen_private libmiopen_dev libmiopen_private_dev
    libhip_host libhip_host_dev)

set(CPACK_DEBIAN_LIBMIOPEN_PACKAGE_NAME libmiopen)
set(CPACK_DEBIAN_LIBMIOPEN_PRIVATE_PACKAGE_NAME libmiopen-private)
set(CPACK_DEBIAN_LIBMIOPEN_DEV_PACKAGE_NAME libmiopen-dev)
set(CPACK_DEBIAN_LIBMIOPEN_PRIVATE_DEV_PACKAGE_NAME libmiopen-private-dev)
set(CPACK_DEBIAN_LIBMIOPEN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIBMIOPEN_PRIVATE_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIBMIOPEN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_LIBMIOPEN_PRIVATE_DEV_PACKAGE_SECTION libdevel)
# The host HIP runtime (projects/hip-host): its own packages, never named like ROCm's.
set(CPACK_DEBIAN_LIBHIP_HOST_PACKAGE_NAME libhip-host)
set(CPACK_DEBIAN_LIBHIP_HOST_DEV_PACKAGE_NAME libhip-host-dev)
set(CPACK_DEBIAN_LIBHIP_HOST_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIBHIP_HOST_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_LIBHIP_HOST_PACKAGE_DEPENDS "libc6, libstdc++6")
set(CPACK_DEBIAN_LIBHIP_HOST_DEV_PACKAGE_DEPENDS "libhip-host (= ${MIOPEN_PACKAGE_VERSION})")

# Exact-version co-dependencies (the public library needs its own private library).
set(CPACK_DEBIAN_LIBMIOPEN_PACKAGE_DEPENDS "libmiopen-private (= ${MIOPEN_PACKAGE_VERSION})")
set(CPACK_DEBIAN_LIBMIOPEN_PRIVATE_PACKAGE_DEPENDS "libc6, libstdc++6, libopenblas0")
set(CPACK_DEBIAN_LIBMIOPEN_PRIVATE_DEV_PACKAGE_DEPENDS "libmiopen-private (= ${MIOPEN_PACKAGE_VERSION})")
# The CMake package exports both targets, so the -dev package needs the private -dev package.
set(CPACK_DEBIAN_LIBMIOPEN_DEV_PACKAGE_DEPENDS
    "libmiopen (= ${MIOPEN_PACKAGE_VERSION}), libmiopen-private-dev (= ${MIOPEN_PACKAGE_VERSION})")
include(CPack)
