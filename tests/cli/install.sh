# make install honours PREFIX and DESTDIR for everything, the Lua module
# included: `make install DESTDIR=$T PREFIX=/usr/local` puts every file
# under $T (and nothing outside); the staged pkg-config file gives flags
# a C program builds and links with; the staged module loads in lua5.4;
# another PREFIX moves everything; the rockspec's install target puts
# the module where LuaRocks says; the bash completion offers each
# command's options (every option of `warplab CMD --help`).
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
B=$(cd "$(dirname "$WL")" && pwd)
MODE=$(basename "$B")
# a sanitizer build's library links with its runtime, and its module
# cannot load into an uninstrumented lua5.4
case $MODE in
asan) SAN="-fsanitize=address,undefined" ;;
ubsan) SAN="-fsanitize=undefined" ;;
*) SAN="" ;;
esac
S=$T/stage
touch "$T/stamp"
sleep 1
env -u MAKEFLAGS -u MFLAGS make -s -C "$ROOT" MODE="$MODE" install DESTDIR="$S" PREFIX=/usr/local \
  > "$T/log" 2>&1 || { tail -n 20 "$T/log"; fail "make install: exit $?"; }
for f in bin/warplab lib/libwarplab.a include/warplab.h \
         lib/pkgconfig/warplab.pc lib/lua/5.4/warplab.so \
         share/lua/5.4/warplab/kernel.lua share/man/man1/warplab.1 \
         share/bash-completion/completions/warplab; do
  [ -f "$S/usr/local/$f" ] || { find "$S" -type f; fail "no $f under DESTDIR"; }
done
# nothing outside DESTDIR: none of those files in /usr/local is new
for f in $(cd "$S/usr/local" && find . -type f); do
  [ ! -e "/usr/local/$f" ] || [ ! "/usr/local/$f" -nt "$T/stamp" ] ||
    fail "make install DESTDIR wrote /usr/local/$f"
done

# pkg-config on the staged .pc: the install's flags, and (relocated to
# the stage) a program that builds, links and runs
command -v pkg-config > /dev/null 2>&1 || fail "pkg-config missing"
PC=$S/usr/local/lib/pkgconfig
flags=$(PKG_CONFIG_PATH=$PC pkg-config --cflags --libs warplab) ||
  fail "pkg-config warplab"
[ "$(echo $flags)" = "-I/usr/local/include -L/usr/local/lib -lwarplab -lm" ] ||
  fail "pkg-config: '$flags'"
[ "$(PKG_CONFIG_PATH=$PC pkg-config --modversion warplab)" = \
  "$("$WL" version | sed 's/^warplab //')" ] || fail "pkg-config version"
cat > "$T/t.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <warplab.h>
int main(void) {
  static const char mp[] =
      "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1 | ld.acquire.gpu r0, y ;\n"
      " st.release.gpu y, 1 | ld.weak r1, x ;\n"
      "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
  wl_ctx *ctx;
  wl_litmus *t;
  wl_result *r;
  if (wl_ctx_new(NULL, &ctx) != 0 ||
      wl_litmus_parse(ctx, "mp", mp, strlen(mp), &t) != 0 ||
      wl_explore(ctx, t, NULL, &r) != 0)
    return 1;
  printf("%s %d\n", wl_litmus_name(t), wl_result_verdict(r));
  wl_result_free(r);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
  return 0;
}
C
# shellcheck disable=SC2046
${CC:-cc} -std=c11 $SAN -o "$T/t" "$T/t.c" $(PKG_CONFIG_PATH=$PC pkg-config \
  --define-variable=prefix="$S/usr/local" --cflags --libs warplab) \
  2> "$T/err" || { cat "$T/err"; fail "a program built with pkg-config's flags"; }
[ "$("$T/t")" = "MP 0" ] || fail "the program: $("$T/t")"

# the staged Lua module loads in lua5.4, from the stage
if command -v lua5.4 > /dev/null 2>&1 && [ -z "$SAN" ]; then
  lua5.4 -e "
    package.cpath = '$S/usr/local/lib/lua/5.4/?.so;' .. package.cpath
    package.path = '$S/usr/local/share/lua/5.4/?.lua;' .. package.path
    assert(package.searchpath('warplab', package.cpath) ==
           '$S/usr/local/lib/lua/5.4/warplab.so')
    local wl = require 'warplab'
    local r = wl.load('$ROOT/scripts/litmus/MP.litmus'):explore()
    assert(r.ok == false and r.nstates == 3, 'MP')" ||
    fail "lua5.4: require 'warplab' from the stage"
fi

# another PREFIX: everything moves with it
env -u MAKEFLAGS -u MFLAGS make -s -C "$ROOT" MODE="$MODE" install DESTDIR="$T/s2" PREFIX=/opt/wl \
  > "$T/log" 2>&1 || { tail -n 20 "$T/log"; fail "PREFIX=/opt/wl"; }
for f in bin/warplab lib/lua/5.4/warplab.so share/lua/5.4/warplab/kernel.lua \
         lib/pkgconfig/warplab.pc share/man/man1/warplab.1; do
  [ -f "$T/s2/opt/wl/$f" ] || fail "PREFIX=/opt/wl: no $f"
done
[ -z "$(find "$T/s2" -path "$T/s2/opt" -prune -o -type f -print)" ] ||
  fail "PREFIX=/opt/wl: files outside it"
grep -q '^prefix=/opt/wl$' "$T/s2/opt/wl/lib/pkgconfig/warplab.pc" ||
  fail "the .pc's prefix"

# the rockspec: names this version, builds with make, and its install
# target puts the module where LuaRocks's LIBDIR and LUADIR say
R=$ROOT/warplab-$("$WL" version | sed 's/^warplab //')-1.rockspec
[ -f "$R" ] || fail "no $R"
if command -v lua5.4 > /dev/null 2>&1; then
  lua5.4 -e "
    local env = {}
    assert(loadfile('$R', 't', env))()
    assert(env.package == 'warplab' and env.build.type == 'make')
    assert(env.version == '$("$WL" version | sed 's/^warplab //')-1')
    print(env.build.install_target)" > "$T/target" || fail "rockspec"
  tgt=$(cat "$T/target")
  env -u MAKEFLAGS -u MFLAGS make -s -C "$ROOT" MODE="$MODE" "$tgt" DESTDIR="$T/s3" LUA_CMOD=/rock/lib \
    LUA_LMOD=/rock/lua > "$T/log" 2>&1 || { tail "$T/log"; fail "make $tgt"; }
  [ -f "$T/s3/rock/lib/warplab.so" ] && [ -f "$T/s3/rock/lua/warplab/kernel.lua" ] ||
    fail "make $tgt: not in LUA_CMOD/LUA_LMOD"
fi

# bash completion: the commands, and every option of each command's help
if command -v bash > /dev/null 2>&1; then
  C=$ROOT/completions/warplab.bash
  got=$(bash -c ". '$C'; COMP_WORDS=(warplab lit); COMP_CWORD=1; _warplab
                 echo \"\${COMPREPLY[*]}\"")
  [ "$got" = "litmus" ] || fail "completion of 'lit': '$got'"
  got=$(bash -c ". '$C'; COMP_WORDS=(warplab litmus --he); COMP_CWORD=2
                 _warplab; echo \"\${COMPREPLY[*]}\"")
  [ "$got" = "--herd --help" ] || fail "completion of 'litmus --he': '$got'"
  got=$(bash -c ". '$C'; COMP_WORDS=(warplab sample --profile ''); COMP_CWORD=3
                 _warplab; echo \"\${COMPREPLY[*]}\"")
  [ "$got" = "weak h100" ] || fail "completion of --profile: '$got'"
  for c in litmus sample gen cuda compare run report campaign merge; do
    opts=$(bash -c ". '$C'; _warplab_opts $c")
    for o in $("$WL" "$c" --help | sed '/^examples\{0,1\}:$/,$d' |
               grep -oE -- '(^      -[a-zA-Z]\b|--[a-z][a-z-]*[a-z])' |
               tr -d ' ' | sort -u); do
      printf '%s\n' $opts | grep -qx -- "$o" ||
        fail "completion of $c lacks $o"
    done
  done
fi
exit 0
