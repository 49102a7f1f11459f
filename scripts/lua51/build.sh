#!/bin/sh
# Rebuilds src/redis/lua/wasm/redisLua51.{js,wasm} from Redis 7.0.15's deps/lua (the files of
# `git show 7.0.15:deps/lua/src` and src/solarisfixes.h, pristine, in vendor/redis-7.0.15), this folder's budget patch and C glue, with Debian's emcc 3.1.6.
# The committed wasm's SHA-256 is recorded in src/redis/lua/wasm/redisLua51.wasm.sha256; a unit test
# checks it, so CI never needs emscripten. Run: npm run build:lua (then commit both outputs).
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT="$ROOT/src/redis/lua/wasm"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# Fixed paths inside the build so the bytes do not depend on where the repository lives.
cp -r "$ROOT"/vendor/redis-7.0.15/. "$WORK"/
SRC="$WORK/deps/lua/src"
cp "$HERE"/redisLua.c "$HERE"/redisApi.c "$HERE"/resp.c "$HERE"/glue.h "$HERE"/hostCall.js "$SRC"/
(cd "$SRC" && patch -s -p1 < "$HERE/budget.patch")
CORE="lapi lcode ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser lstate lstring ltable ltm lundump lvm lzio lauxlib lbaselib ldblib lmathlib lstrlib ltablib"
EXTRA="lua_cjson lua_cmsgpack lua_bit lua_struct strbuf fpconv"
FILES=""
for f in $CORE $EXTRA; do FILES="$FILES $f.c"; done
cd "$SRC"
# Debian's emcc needs acorn, which node-acorn installs where NodeSource's node does not look.
NODE_PATH=/usr/share/nodejs emcc -O2 -DLUA_ANSI -DENABLE_CJSON_GLOBAL -DREDIS_STATIC='' -DLUA_USELONGLONG -I. $FILES redisLua.c redisApi.c resp.c \
  --js-library hostCall.js -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createRedisLua \
  -sENVIRONMENT=web,worker -sALLOW_MEMORY_GROWTH=1 -sFILESYSTEM=0 \
  -sEXPORTED_FUNCTIONS=_malloc,_free -sEXPORTED_RUNTIME_METHODS=HEAPU8,HEAP32 \
  -o redisLua51.mjs
mkdir -p "$OUT"
cp redisLua51.mjs "$OUT/redisLua51.js"
cp redisLua51.wasm "$OUT/redisLua51.wasm"
sha256sum redisLua51.wasm | cut -d' ' -f1 > "$OUT/redisLua51.wasm.sha256"
ls -l "$OUT"
