// An Emscripten --js-library: emcc supplies these names when it links the glue.
/* global mergeInto, LibraryManager, Module */
mergeInto(LibraryManager.library, {
  host_call: function (argc, argv, lens) { return Module.hostCall(argc, argv, lens); },
});
