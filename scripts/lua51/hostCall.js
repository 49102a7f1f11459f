mergeInto(LibraryManager.library, {
  host_call: function (argc, argv, lens) { return Module.hostCall(argc, argv, lens); },
});
