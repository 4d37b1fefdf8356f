# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Small helpers shared by the libraries, providers and tests.

# A test program linked with cmocka, registered with ctest.
#   rdma_cmocka_test(NAME SOURCES src... [LIBS lib...] [LABELS l...])
function(rdma_cmocka_test name)
	cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS" ${ARGN})
	add_executable(${name} ${T_SOURCES})
	target_link_libraries(${name} PRIVATE cmocka rdma_test_common
		${T_LIBS})
	set_target_properties(${name} PROPERTIES
		RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
	add_test(NAME ${name} COMMAND ${name})
	if(T_LABELS)
		set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
	endif()
endfunction()

# A test this configuration cannot run, registered anyway so that ctest
# shows it (never dropped in silence; see tests/common/skip.h):
#   rdma_unavailable_test(NAME REASON why [LABELS l...] [DEBIAN_PACKAGES p...])
# Without DEBIAN_PACKAGES it is a SKIP. With them it needs those packages:
# a FAILURE on Debian 12, where build.sh installs them, a SKIP elsewhere.
function(rdma_unavailable_test name)
	cmake_parse_arguments(T "" "REASON" "LABELS;DEBIAN_PACKAGES" ${ARGN})
	add_test(NAME ${name}
		COMMAND sh "${CMAKE_SOURCE_DIR}/tests/common/unavailable.sh"
			"${T_REASON}" ${T_DEBIAN_PACKAGES})
	if(T_LABELS)
		set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
	endif()
endfunction()

# The skip convention for every test of the tree, whoever registers it:
# add_test is wrapped so that exit status 77 is a SKIP in ctest, never a
# failure or a pass. Arguments travel as a list, so none may be empty or
# hold a ';' (refused loudly rather than mangled).
function(add_test)
	math(EXPR last "${ARGC} - 1")
	foreach(i RANGE ${last})
		if("${ARGV${i}}" STREQUAL "" OR "${ARGV${i}}" MATCHES ";")
			message(FATAL_ERROR
				"add_test(${ARGV0} ${ARGV1}): argument ${i} is "
				"empty or holds ';'")
		endif()
	endforeach()
	_add_test(${ARGV})
	if(ARGV0 STREQUAL "NAME")
		set(name "${ARGV1}")
	else()
		set(name "${ARGV0}")
	endif()
	set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
endfunction()

# A provider plug-in: lib<name>-rdmav<PABI>.so with no exported symbols, and
# its <name>.driver file (in-tree: absolute path; installed: bare name).
function(rdma_provider name)
	set(target "${name}-rdmav${IBVERBS_PABI_VERSION}")
	add_library(${target} MODULE ${ARGN})
	set_target_properties(${target} PROPERTIES
		OUTPUT_NAME "${name}-rdmav${IBVERBS_PABI_VERSION}"
		PREFIX "lib")
	target_link_libraries(${target} PRIVATE ibverbs)
	target_link_options(${target} PRIVATE
		"-Wl,--version-script=${CMAKE_SOURCE_DIR}/buildlib/provider.map"
		"-Wl,-z,defs")
	install(TARGETS ${target} DESTINATION "${VERBS_PROVIDER_INSTALL_DIR}")
	rdma_provider_config(${name})
endfunction()

# Only the .driver files; used by rdma_provider and by shared providers.
function(rdma_provider_config name)
	file(WRITE "${BUILD_CONFIG_DIR}/${name}.driver"
		"driver ${CMAKE_BINARY_DIR}/lib/lib${name}\n")
	file(WRITE "${CMAKE_BINARY_DIR}/driver-files/${name}.driver"
		"driver ${name}\n")
	install(FILES "${CMAKE_BINARY_DIR}/driver-files/${name}.driver"
		DESTINATION "${IBV_CONFIG_INSTALL_DIR}")
endfunction()

# A provider that is also a public library (e.g. mlx5 and its mlx5dv API):
#   rdma_shared_provider(name map soversion version srcs...)
# builds lib<name>.so.<version> with SONAME lib<name>.so.<soversion> and the
# version script @map, plus lib<name>-rdmav<PABI>.so, the plug-in name that
# libibverbs dlopens, as a symlink to it (one object, loaded once), and the
# <name>.driver file.
function(rdma_shared_provider name map soversion version)
	add_library(${name} SHARED ${ARGN})
	set_target_properties(${name} PROPERTIES
		SOVERSION ${soversion}
		VERSION ${version}
		LINK_DEPENDS "${map}")
	target_link_libraries(${name} PRIVATE ibverbs)
	target_link_options(${name} PRIVATE
		"-Wl,--version-script=${map}" "-Wl,-z,defs")
	install(TARGETS ${name} LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")

	set(plugin "lib${name}-rdmav${IBVERBS_PABI_VERSION}.so")
	set(soname "lib${name}.so.${soversion}")
	add_custom_command(TARGET ${name} POST_BUILD
		COMMAND ${CMAKE_COMMAND} -E create_symlink "${soname}"
			"${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/${plugin}"
		VERBATIM)
	file(RELATIVE_PATH rel "${VERBS_PROVIDER_INSTALL_DIR}"
		"${CMAKE_INSTALL_FULL_LIBDIR}/${soname}")
	install(CODE "
		file(MAKE_DIRECTORY
			\"\$ENV{DESTDIR}${VERBS_PROVIDER_INSTALL_DIR}\")
		file(CREATE_LINK \"${rel}\"
			\"\$ENV{DESTDIR}${VERBS_PROVIDER_INSTALL_DIR}/${plugin}\"
			SYMBOLIC)")
	rdma_provider_config(${name})
endfunction()

# Tests that run Debian's perftest: it leaks its own buffers at exit, which
# is not ours to report. In sanitizer builds LSan is off for them; ASan
# still checks every access (our libraries' and the sim's leaks are checked
# by their own tests). Appended, so a test keeps the environment it set.
function(rdma_foreign_leaks_allowed)
	if(RDMA_SANITIZED)
		set_property(TEST ${ARGN} APPEND PROPERTY
			ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
	endif()
endfunction()

# add_subdirectory() of every folder below the current one that has a
# CMakeLists.txt, in name order: tests/ and bench/ take new areas so. A
# macro, so that each folder sees its caller's scope as it did.
macro(rdma_add_subdirectories)
	file(GLOB _rdma_dirs LIST_DIRECTORIES true
		RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}" "*")
	list(SORT _rdma_dirs)
	foreach(_rdma_d ${_rdma_dirs})
		set(_rdma_f "${CMAKE_CURRENT_SOURCE_DIR}/${_rdma_d}")
		if(EXISTS "${_rdma_f}/CMakeLists.txt")
			add_subdirectory(${_rdma_d})
		endif()
	endforeach()
endmacro()
