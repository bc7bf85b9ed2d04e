# The user find-db (src/conv/find_db.cpp): line format, files on disk, concurrent writers.
# The multi-process tests fork the test process itself; no helper executable is needed.
miopen_add_test(miopen_find_db_test
  SOURCES
    unit/find_db_format_test.cpp
    unit/find_db_file_test.cpp
    unit/find_db_concurrency_test.cpp
  LIBS MIOpen_find_db)
