# Finds NCCL (nccl.h and libnccl) where it already is; installs nothing. Searched in this order:
#   1. NCCL_ROOT (a CMake variable or the environment),
#   2. the NCCL of the Python packages (pip's nvidia-nccl-cu12/cu13: the one PyTorch loads), found
#      by asking the Python next to this CMake (a virtual environment's) or on PATH,
#   3. the CUDA toolkit and the system's default places.
# Header and library must come from the same place (a header of one version with the library of
# another would build and misbehave). Defines NCCL_FOUND, NCCL_VERSION, NCCL_INCLUDE_DIR,
# NCCL_LIBRARY and the imported target NCCL::nccl.

set(_nccl_places)
foreach(_root IN ITEMS "${NCCL_ROOT}" "$ENV{NCCL_ROOT}")
  if(_root)
    list(APPEND _nccl_places "${_root}")
  endif()
endforeach()

get_filename_component(_nccl_cmake_bin "${CMAKE_COMMAND}" DIRECTORY)
find_program(NCCL_PYTHON NAMES python3 python HINTS "${_nccl_cmake_bin}")
if(NCCL_PYTHON)
  execute_process(
    COMMAND "${NCCL_PYTHON}" -c "import nvidia.nccl; print(list(nvidia.nccl.__path__)[0])"
    OUTPUT_VARIABLE _nccl_python_dir OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _nccl_python_rc ERROR_QUIET)
  if(_nccl_python_rc EQUAL 0 AND IS_DIRECTORY "${_nccl_python_dir}")
    list(APPEND _nccl_places "${_nccl_python_dir}")
  endif()
endif()

# The first place that has both; then the default places.
foreach(_place IN LISTS _nccl_places)
  find_path(NCCL_INCLUDE_DIR nccl.h PATHS "${_place}/include" NO_DEFAULT_PATH)
  find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2 PATHS "${_place}/lib" "${_place}/lib64"
               NO_DEFAULT_PATH)
  if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
    break()
  endif()
  unset(NCCL_INCLUDE_DIR CACHE)
  unset(NCCL_LIBRARY CACHE)
endforeach()
find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${CUDAToolkit_LIBRARY_DIR}
             "${CUDAToolkit_LIBRARY_ROOT}/lib")

if(NCCL_INCLUDE_DIR AND EXISTS "${NCCL_INCLUDE_DIR}/nccl.h")
  file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _nccl_defines
       REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) +[0-9]+")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX REPLACE ".*#define NCCL_${_part} +([0-9]+).*" "\\1" _nccl_${_part}
                         "${_nccl_defines}")
  endforeach()
  set(NCCL_VERSION "${_nccl_MAJOR}.${_nccl_MINOR}.${_nccl_PATCH}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL REQUIRED_VARS NCCL_LIBRARY NCCL_INCLUDE_DIR
                                  VERSION_VAR NCCL_VERSION)
if(NCCL_FOUND AND NOT TARGET NCCL::nccl)
  add_library(NCCL::nccl UNKNOWN IMPORTED)
  set_target_properties(NCCL::nccl PROPERTIES IMPORTED_LOCATION "${NCCL_LIBRARY}"
                                              INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
endif()
