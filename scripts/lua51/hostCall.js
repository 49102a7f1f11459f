// An Emscripten --js-library: emcc supplies these names when it links the glue.
/* global mergeInto, LibraryManager, Module */
mergeInto(LibraryManager.library, {
  host_call: function (argc, argv, lens) {
    return Module.hostCall(argc, argv, lens);
  },
  host_sha1hex: function (s, len, out) {
    Module.hostSha1hex(s, len, out);
  },
});
