-- LuaRocks: `luarocks make warplab-0.1.0-1.rockspec` from the top of a
-- clone builds warplab with its Makefile and installs the Lua module
-- (warplab.so, which embeds scripts/warplab/*.lua, and those files) into
-- the rock tree.  scripts/deps.sh lists what the build needs (libuv).
rockspec_format = "3.0"
package = "warplab"
version = "0.1.0-1"
source = {
  url = "git+file://.", -- a local clone: luarocks make builds the checkout
}
description = {
  summary = "A sandbox for the GPU (CUDA/PTX) memory model, scripted in Lua",
  detailed = [[
    An exhaustive explorer of the PTX memory consistency model, a sampler
    on an operational GPU-like memory system, and a simulated device that
    runs kernels written in Lua and prices every warp-wide access.
  ]],
}
dependencies = {
  "lua >= 5.4, < 5.5",
}
external_dependencies = {
  LIBUV = { header = "uv.h" },
}
build = {
  type = "make",
  build_target = "all",
  build_variables = {
    CFLAGS = "$(CFLAGS)",
    LUA_CFLAGS = "-I$(LUA_INCDIR)",
  },
  install_target = "install-lua",
  install_variables = {
    LUA_CMOD = "$(LIBDIR)",
    LUA_LMOD = "$(LUADIR)",
  },
}
