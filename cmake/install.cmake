# `cmake --install build --prefix P` (docs/cli.md, "Installing"): the program and the realnet
# daemons into P/bin (the program finds the daemons beside itself: realnet's find_daemons), the
# scenario files, the Wireshark dissector, the docs, the man page, the bash completion, the
# sweep plotter and the Python package.
include(GNUInstallDirs)
install(TARGETS tsunagi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TSUNAGI_WITH_REALNET)
  install(TARGETS tsunagi-node tsunagi-rendezvous tsunagi-relay tsunagi-delayline tsunagi-emulate
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# scenarios/ also holds the loader's C++ (src/, include/): only the scenario files go.
install(DIRECTORY scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tsunagi/scenarios
        FILES_MATCHING PATTERN "*.toml" PATTERN "src" EXCLUDE PATTERN "include" EXCLUDE)
install(FILES tools/wireshark/tsunagi.lua DESTINATION ${CMAKE_INSTALL_DATADIR}/tsunagi/wireshark)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES README.md LICENSE CITATION.cff DESTINATION ${CMAKE_INSTALL_DOCDIR})
# man/man1/tsunagi.1 and bash-completion/completions/tsunagi, made by tsunagi_cli_docs.
install(DIRECTORY ${TSUNAGI_BUILD_SHARE_DIR}/ DESTINATION ${CMAKE_INSTALL_DATADIR})
# tools/plot_sweep.py on the PATH, under the program's name (it needs only Python 3 and
# matplotlib, nothing of the source tree).
install(PROGRAMS tools/plot_sweep.py DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME tsunagi-plot-sweep)
# The Python package as a project pip installs (`pip install P/share/tsunagi/python`), which is
# also importable as it lies (PYTHONPATH=P/share/tsunagi/python): where a Python looks for
# packages depends on its version and distribution, which the build does not know.
install(DIRECTORY python/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tsunagi/python
        PATTERN "__pycache__" EXCLUDE PATTERN "*.egg-info" EXCLUDE PATTERN "build" EXCLUDE)
