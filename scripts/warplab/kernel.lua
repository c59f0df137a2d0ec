-- warplab/kernel.lua -- kernels on the simulated device: wl.kernel,
-- dev:launch (with a printable report), dev:sample (outcome histograms
-- over seeds), dev:runs (the same across cores, each worker with its own
-- lua_State: bindings/lkruns.c), and the text report of a launch's
-- counters.
local wl = ...
if type(wl) ~= "table" then wl = require "warplab" end
local methods = wl._device_methods

local kernel_mt = {
  __name = "warplab.Kernel",
  __tostring = function(k) return "kernel " .. (k.name or "?") end,
}

-- wl.kernel(fn [, opts]) -> a kernel.  opts: name, static_shared (bytes
-- of __shared__ arrays per block; measured by a probe run otherwise),
-- regs (registers per thread, for occupancy).
function wl.kernel(fn, opts)
  if type(fn) ~= "function" then
    error("wl.kernel: a function expected, got " .. type(fn), 2)
  end
  wl._checkopts(opts, "wl.kernel",
                { "name", "static_shared", "regs", "cache" })
  local k = { fn = fn }
  for key, v in pairs(opts or {}) do k[key] = v end
  if not k.name then
    local info = debug.getinfo(fn, "S")
    k.name = ("%s:%d"):format(info.short_src, info.linedefined)
  end
  return setmetatable(k, kernel_mt)
end

-- wl.warp_kernel(fn [, opts]) -> a warp-vector kernel: fn(w, args...)
-- runs once per warp (not per thread), launched with dev:launch like any
-- kernel.  w.threadIdx.x/y/z and w.lane are lane vectors (one number per
-- lane; + - * / // % ^ & | ~ << >> work lane by lane); w.blockIdx,
-- w.blockDim, w.gridDim are {x, y, z} of numbers (as c's), w.warp the
-- warp's index.  A[v] with
-- a lane vector v loads for every active lane (one warp-wide request),
-- A[v] = x stores; a number index is a broadcast.  Lanes diverge only
-- through masks: v:lt(x), v:le, v:eq, v:ne, v:gt, v:ge give 0/1 vectors,
-- w:where(mask, fn [, else_fn]) runs fn with the other lanes inactive,
-- w:select(mask, a, b) merges, w:any / w:all / w:ballot decide for the
-- warp.  `v < x` is an error (a vector is not one boolean), and a vector
-- is always true in `if v then`.  Also w:load / w:store (with semantics
-- and scope), w:ldg, w:volatile_load / w:volatile_store, w:atomicAdd
-- (and the other atomicX, _block, _system) returning the old values,
-- w:shared(type, n [, name]), w:syncthreads() (every lane active),
-- w:threadfence*(), w:lanes(x), w:active(), and the warp operations
-- w:syncwarp([mask]), w:shfl_sync / shfl_up_sync / shfl_down_sync /
-- shfl_xor_sync (mask, v, lane [, width]) -> a lane vector,
-- w:ballot_sync(mask, pred) -> an integer, w:any_sync / w:all_sync (mask,
-- pred) -> a boolean (the mask must be the active lanes).  opts as
-- wl.kernel's.  `==` / `~=` between a lane vector and a value is refused
-- here (lanelint.lua: Lua would answer false / true for every lane).
function wl.warp_kernel(fn, opts)
  if type(fn) ~= "function" then
    error("wl.warp_kernel: a function expected, got " .. type(fn), 2)
  end
  -- `w.lane == 0` is false for every lane, silently (lanelint.lua)
  -- (a lint that cannot read the source, or trips on it, says nothing)
  local ok, line, msg = pcall(wl._lane_lint, fn)
  if ok and line then
    error(("%s:%d: wl.warp_kernel: %s"):format(
      debug.getinfo(fn, "S").short_src, line, msg), 0)
  end
  local k = wl.kernel(fn, opts)
  k.mode = "warp"
  return k
end

-- short names for the report's columns, in order
local columns = {
  { "inst", "smsp__inst_executed.sum" },
  { "wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum" },
  { "conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum" },
  { "requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_requests_pipe_lsu_mem_local.sum" },
  { "sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local.sum" },
  { "L1hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum" },
  { "L2hit", "lts__t_sectors_srcunit_tex_lookup_hit.sum" },
  { "L2miss", "lts__t_sectors_srcunit_tex_lookup_miss.sum" },
  { "const_req", "idc__requests.sum" },
  { "const_miss", "idc__requests_lookup_miss.sum" },
}

local function col(c, counters)
  local v = 0
  for i = 2, #c do v = v + (counters[c[i]] or 0) end
  return v
end

-- wl.report_text(report) -> the launch report as a text table: one row
-- per source line and access kind, then the kernel's totals.
function wl.report_text(r)
  local out = {}
  local o = r.occupancy
  out[#out + 1] = ("occupancy: %d block%s/SM (limited by %s), %d warps/SM, %.0f%%; shared %d B/block, carve-out %d KB"):format(
    o.blocks_per_sm, o.blocks_per_sm == 1 and "" or "s", o.limited_by,
    o.warps_per_sm, o.occupancy * 100,
    o.shared_per_block, o.shared_per_sm // 1024)
  if r.l1_hit_rate or r.l2_hit_rate then
    out[#out + 1] = ("hit rates: L1 %s, L2 %s"):format(
      r.l1_hit_rate and ("%.1f%%"):format(r.l1_hit_rate * 100) or "-",
      r.l2_hit_rate and ("%.1f%%"):format(r.l2_hit_rate * 100) or "-")
  end
  local used = {}
  for _, c in ipairs(columns) do
    if col(c, r.counters) > 0 then used[#used + 1] = c end
  end
  local hdr = { ("%5s %-8s %-4s %2s"):format("line", "space", "op", "B") }
  for _, c in ipairs(used) do hdr[#hdr + 1] = ("%10s"):format(c[1]) end
  out[#out + 1] = table.concat(hdr, " ")
  local sites = {}
  for _, s in ipairs(r.sites) do sites[#sites + 1] = s end
  table.sort(sites, function(a, b)
    if a.line ~= b.line then return a.line < b.line end
    if a.space ~= b.space then return a.space < b.space end
    return a.op < b.op
  end)
  for _, s in ipairs(sites) do
    local row = { ("%5d %-8s %-4s %2d"):format(s.line, s.space, s.op, s.width) }
    for _, c in ipairs(used) do
      row[#row + 1] = ("%10d"):format(col(c, s.counters))
    end
    out[#out + 1] = table.concat(row, " ")
  end
  local row = { ("%5s %-8s %-4s %2s"):format("all", "", "", "") }
  for _, c in ipairs(used) do
    row[#row + 1] = ("%10d"):format(col(c, r.counters))
  end
  out[#out + 1] = table.concat(row, " ")
  if r.findings then
    out[#out + 1] = #r.findings == 0 and "checks: nothing found" or
                    ("checks: %d finding%s"):format(#r.findings,
                      #r.findings > 1 and "s" or "")
    if #r.findings > 0 then out[#out + 1] = wl.findings_text(r.findings) end
  end
  return table.concat(out, "\n")
end

local launch_jobs -- wl.set_launch_jobs: the jobs of launches that give none
local report_mt = { __name = "warplab.LaunchReport", __tostring = wl.report_text }

-- r:site(line [, space [, op]]) -> the counters of one source line
-- (summed over its sites that match); r:heatmap(line [, op [, opts]]) ->
-- the text bank heatmap of the costliest shared-memory request made at
-- that line (r:heatmap_svg likewise)
function report_mt.__index(r, key)
  if key == "heatmap" or key == "heatmap_svg" then
    return function(self, line, op, opts)
      for _, s in ipairs(self.sites) do
        if s.line == line and s.worst_access and (op == nil or s.op == op) then
          return wl[key](s.worst_access, opts)
        end
      end
      error(("r:%s: no shared-memory access at line %s"):format(key,
            tostring(line)), 2)
    end
  end
  if key == "site" then
    return function(self, line, space, op)
      local sum = {}
      for _, s in ipairs(self.sites) do
        if s.line == line and (space == nil or s.space == space) and
           (op == nil or s.op == op) then
          for k, v in pairs(s.counters) do sum[k] = (sum[k] or 0) + v end
        end
      end
      return sum
    end
  end
end

-- dev:launch(kernel, {grid=, block=, shared=, seed=, profile=, regs=,
-- cache=, max_steps=, slice=, static_shared=, check=, schedule=,
-- defer=, jobs=}, args...) -> report.  slice: the accesses a lane makes before
-- it yields (default 64), the grain at which lanes interleave; slice = 1
-- interleaves them access by access, as `warplab sample` interleaves
-- instructions, and shows the sampler's outcomes at its rates
-- (tests/lua/shape_kernels_all.lua).  check: the checkers
-- (warplab/check.lua; the report's findings); schedule: "independent"
-- (default), "lockstep" or "random", how the lanes of a warp take turns
-- (engine/warplab.h, WL_SCHED_*); defer: false keeps kernels from
-- deferring loads (bindings/lkreplay.c, lwreplay.c: a deferred load's
-- late value replays the lane, or a warp-vector kernel's warp, running
-- its Lua code again).  Errors name the caller's line (a launch option or
-- argument) or the kernel's line and thread (a failure inside it).  A
-- device call inside a coroutine the kernel created is such a failure:
-- each thread runs as one coroutine, which warplab yields at barriers
-- and between slices, and it cannot yield across the kernel's own
-- coroutine.resume (lkernel.c, foreign_co).
--
-- jobs = N (1 to 1024; warplab run --jobs N gives it to every launch
-- that sets none, except those of dev:sample) runs the blocks in parts
-- across N cores: part k of P = min(blocks, SMs) holds the blocks b
-- with b % P == k (one SM's, under the hardware's round-robin), runs
-- from its own seed on its own copy of the device as it was when the
-- launch began, and the parts join in part order (bindings/lksplit.c,
-- engine/sim/split.c).  When no part read or wrote a byte of global
-- memory that another part wrote, the blocks did not communicate, and
-- the parts one after the other are an execution of the launch: the
-- device takes their writes and L2 lookups, and the report their
-- counters, steps and findings (r.split = {parts =, joined = true}).
-- Otherwise -- a counter every block increments, a flag one block polls
-- and another sets, a kernel that changes a Lua value it captured --
-- the launch runs whole on this thread, as without jobs, and r.split =
-- {parts =, joined = false, why = "..."} says where the parts met.  The
-- memory, the report and the printed output are the same for any N (a
-- joined launch's blocks interleave as in their parts, so its counters
-- may differ from the launch without jobs; its memory does not).
-- A part that fails (out of bounds, a barrier part of a block never
-- reaches, its steps past max_steps...) or parts whose steps together
-- pass max_steps run the launch whole too, so that it fails as without
-- jobs; max_seconds bounds the launch (its parts end by one deadline),
-- and a part past it, or stopped by a signal, is reported as it is.
-- the launch options with kernel k's own static_shared and regs (those
-- of cfg win)
local function kernel_cfg(k, cfg)
  if type(k) == "table" and getmetatable(k) == kernel_mt then
    if k.static_shared and cfg.static_shared == nil then
      local c = {}
      for key, v in pairs(cfg) do c[key] = v end
      c.static_shared = k.static_shared
      if k.regs and c.regs == nil then c.regs = k.regs end
      cfg = c
    elseif k.regs and cfg.regs == nil then
      local c = {}
      for key, v in pairs(cfg) do c[key] = v end
      c.regs = k.regs
      cfg = c
    end
  end
  return cfg
end

function methods.launch(dev, k, cfg, ...)
  if type(cfg) ~= "table" then
    error("dev:launch(kernel, {grid = ..., block = ...}, args...): a "
          .. "configuration table expected", 2)
  end
  cfg = kernel_cfg(k, wl._check_cfg(cfg))
  if cfg.jobs == nil and launch_jobs ~= nil and cfg._part == nil then
    local c = {}
    for key, v in pairs(cfg) do c[key] = v end
    c.jobs = launch_jobs
    cfg = c
  end
  local r = dev:_launch(k, cfg, ...)
  -- hit rates of global loads in L1 and of L1 misses and stores in L2
  -- (nil when nothing was looked up)
  local c = r.counters
  local h1 = c["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"]
  local m1 = c["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"]
  local h2 = c["lts__t_sectors_srcunit_tex_lookup_hit.sum"]
  local m2 = c["lts__t_sectors_srcunit_tex_lookup_miss.sum"]
  if h1 + m1 > 0 then r.l1_hit_rate = h1 / (h1 + m1) end
  if h2 + m2 > 0 then r.l2_hit_rate = h2 / (h2 + m2) end
  wl._check_record(k, r)
  return setmetatable(r, report_mt)
end

local hist_mt = { __name = "warplab.KernelHistogram" }
function hist_mt.__tostring(h)
  local out = { ("Histogram (%d runs, seed %d, profile %s)"):format(
    h.runs, h.seed, h.profile) }
  if h.signal then
    table.insert(out, 1, ("dev:runs: interrupted by %s after %d of %d runs"
                          ):format(h.signal, h.runs, h.n))
  end
  for _, o in ipairs(h.outcomes) do
    out[#out + 1] = ("%-10d%s %s"):format(o.count,
      o.flag and "*>" or ":>", o.outcome)
  end
  if h.partial then
    out[#out + 1] = ("Partial: %d of %d runs"):format(h.runs, h.n)
  end
  if h.condition then
    out[#out + 1] = ("Observation %s %s %d %d"):format(h.name or "kernel",
      h.seen > 0 and "Sometimes" or "Never", h.seen, h.runs - h.seen)
  end
  return table.concat(out, "\n")
end

-- dev:sample{n =, seed =, profile =, run = function(dev, launchcfg) ...
-- return outcome end [, condition = function(outcome) -> bool], name =}
-- runs `run` n times; each run gets {seed = seed + i, profile = profile}
-- to pass to its launches and returns an outcome (any value; outcomes
-- are compared by tostring).  Returns a histogram: .outcomes (sorted by
-- count), .counts[outcome], .seen (runs whose outcome met condition).
-- Runs are sequential: kernels are Lua functions of this state.
function methods.sample(dev, opts)
  if type(opts) ~= "table" or type(opts.run) ~= "function" then
    error("dev:sample{n = N, run = function(dev, cfg) ... end}: run "
          .. "missing", 2)
  end
  wl._checkopts(opts, "dev:sample",
                { "n", "seed", "profile", "run", "condition", "name" })
  local n, seed = opts.n or 100, opts.seed or 1
  local profile = opts.profile or "weak"
  local counts, order = {}, {}
  local seen = 0
  -- many small launches in a row: the default jobs of launches (warplab
  -- run --jobs) does not split them (a launch's own jobs = still does)
  local saved = launch_jobs
  launch_jobs = nil
  local ok, err = pcall(function()
    for i = 0, n - 1 do
      local o = tostring(opts.run(dev, { seed = seed + i,
                                         profile = profile }))
      if not counts[o] then counts[o] = 0; order[#order + 1] = o end
      counts[o] = counts[o] + 1
      if opts.condition and opts.condition(o) then seen = seen + 1 end
    end
  end)
  launch_jobs = saved
  if not ok then error(err, 0) end
  local outs = {}
  for _, o in ipairs(order) do
    outs[#outs + 1] = { outcome = o, count = counts[o],
                        flag = opts.condition and opts.condition(o) or false }
  end
  table.sort(outs, function(a, b)
    if a.count ~= b.count then return a.count > b.count end
    return a.outcome < b.outcome
  end)
  return setmetatable({ runs = n, seed = seed, profile = profile,
                        outcomes = outs, counts = counts, seen = seen,
                        condition = opts.condition ~= nil,
                        name = opts.name }, hist_mt)
end

-- dev:runs(kernel, cfg, {n =, seed =, jobs =, profile =, out =,
-- condition =, name =, progress =}, args...) -> a histogram, as
-- dev:sample's: the outcomes of n runs of the kernel, spread over `jobs`
-- cores (default: the CPUs this process may use).  Run i launches the
-- kernel once on a fresh device built like dev (its preset and settings,
-- its cache configuration), with fresh copies of the device arrays among
-- args holding what they hold now (an array passed twice is one
-- allocation), with cfg's options and a launch seed derived from (seed,
-- i) alone (cfg.seed is not allowed; profile= or cfg.profile the
-- memory profile).  Its outcome: out(args...) called after the launch
-- with the run's own arguments (a string, a number, or a flat table of
-- numbers, strings and booleans, joined by ","), or by default the
-- contents of its arrays, "name=v,v,... name=...".  The histogram is
-- the same for any jobs: every run is a function of its index, and the
-- outcomes are counted in run order.
--
-- Each worker has its own lua_State: the kernel and out go there through
-- string.dump, with their upvalues rebuilt (numbers, strings, booleans,
-- plain tables, other Lua functions, the warplab module and the standard
-- libraries; globals as the worker's own, with the script's global data
-- and functions that can cross), fresh for every run (bindings/lkpack.c):
-- nothing a run changes in them reaches another run.  An upvalue that cannot cross (a device
-- array, a device, a coroutine, a C function of no library, a table with
-- a metatable) is an error naming it: "kernel upvalue 'A' (a device
-- array) cannot cross ...; pass it as an argument".  A run that fails
-- raises "dev:runs: run I: FILE:LINE: ...".  SIGINT or SIGTERM stops the
-- runs: the error raised is the histogram of the runs that finished,
-- marked partial (h.partial, h.signal; tostring gives "dev:runs:
-- interrupted by SIGINT after K of N runs" then the histogram), so that
-- pcall gets it and an uncaught one ends `warplab run` with 130 / 143.
function methods.runs(dev, k, cfg, opts, ...)
  if type(cfg) ~= "table" then
    error("dev:runs(kernel, {grid = ..., block = ...}, {n = ...}, args...): "
          .. "a configuration table expected", 2)
  end
  if type(opts) ~= "table" then
    error("dev:runs(kernel, cfg, {n = ...}, args...): an options table "
          .. "expected", 2)
  end
  wl._checkopts(opts, "dev:runs", { "n", "seed", "jobs", "profile", "out",
                                    "condition", "name", "progress" })
  if cfg.seed ~= nil then
    error("dev:runs: give the seed in the options (seed =), not in the "
          .. "launch configuration: each run gets its own", 2)
  end
  local function int(key, def, lo)
    local v = opts[key]
    if v == nil then return def end
    if math.type(v) ~= "integer" or v < lo then
      error(("dev:runs: %s must be an integer of at least %d"):format(key, lo),
            3)
    end
    return v
  end
  local n, seed = int("n", 100, 0), int("seed", 1, 0)
  local jobs = int("jobs", 0, 1) -- 0: lkruns.c's default
  if jobs > 1024 then error("dev:runs: jobs must be at most 1024", 2) end
  if opts.out ~= nil and type(opts.out) ~= "function" then
    error("dev:runs: out must be a function", 2)
  end
  local fn, kopts = k, nil
  if type(k) == "table" and getmetatable(k) == kernel_mt then
    fn = k.fn
    kopts = { name = k.name, static_shared = k.static_shared, regs = k.regs,
              cache = k.cache, mode = k.mode }
  elseif type(k) ~= "function" then
    error("dev:runs: a kernel (wl.kernel, wl.warp_kernel) or a function "
          .. "expected, got " .. type(k), 2)
  end
  local c = {}
  for key, v in pairs(cfg) do c[key] = v end
  if opts.profile ~= nil then c.profile = opts.profile end
  -- the arguments: device arrays as their allocation and contents
  local nargs, args, allocs = select("#", ...), {}, {}
  for i = 1, nargs do
    local a = select(i, ...)
    local whole = wl._device_array(a)
    if whole ~= nil then
      if a.space ~= "global" and a.space ~= "managed" and
         a.space ~= "constant" then
        error(("dev:runs: argument %d is a %s array; only device memory "
               .. "(malloc, malloc_managed, constant) goes to a run")
              :format(i, a.space), 2)
      end
      local key = a.address
      if allocs[key] == nil then
        allocs[key] = { type = a.type, space = a.space, name = a.name,
                        values = a:read() }
      end
      if not whole then
        error(("dev:runs: argument %d is a view of '%s'; pass whole "
               .. "allocations"):format(i, a.name), 2)
      end
      args[i] = { array = key }
    else
      args[i] = { value = a }
    end
  end
  local run = { kernel_opts = kopts, cfg = c, device = dev.config,
                cache = dev.cache_config, args = args, nargs = nargs,
                allocs = allocs }
  local ok, r = pcall(wl._kernel_runs, fn, opts.out, run, n, seed, jobs,
                      opts.progress and true or false)
  if not ok then -- the caller's line, not this file's
    error(type(r) == "string" and (r:gsub("^[^\n]-:%d+: (dev:runs: )", "%1"))
          or r, 2)
  end
  local counts, outs, seen = {}, {}, 0
  for _, o in ipairs(r.outcomes) do
    counts[o.outcome] = o.count
    local flag = opts.condition and opts.condition(o.outcome) and true or false
    if flag then seen = seen + o.count end
    outs[#outs + 1] = { outcome = o.outcome, count = o.count, flag = flag }
  end
  table.sort(outs, function(a, b)
    if a.count ~= b.count then return a.count > b.count end
    return a.outcome < b.outcome
  end)
  local h = setmetatable({ runs = r.runs, n = n, seed = seed,
                           profile = c.profile or "weak", outcomes = outs,
                           counts = counts, seen = seen,
                           condition = opts.condition ~= nil,
                           name = opts.name, partial = r.partial,
                           signal = r.signal, workers = r.workers,
                           note = r.note }, hist_mt)
  if r.signal then error(h, 0) end
  return h
end

-- The outcome of a run's value v (out's result) as a histogram key.
local function outcome_key(v)
  local t = type(v)
  if t == "string" then return v end
  if t == "number" or t == "boolean" then return tostring(v) end
  if t == "table" and getmetatable(v) == nil then
    local parts = {}
    for i = 1, #v do
      local e = v[i]
      if type(e) ~= "number" and type(e) ~= "string" and
         type(e) ~= "boolean" then
        error("out returned a table whose element " .. i ..
              " is a " .. type(e) .. " (a flat table of numbers, strings "
              .. "or booleans expected)", 0)
      end
      parts[i] = tostring(e)
    end
    return table.concat(parts, ",")
  end
  error("out returned a " .. t .. " (a string, a number or a "
        .. "flat table expected)", 0)
end

-- One run on a worker's state (lkruns.c calls it): a fresh device, the
-- arguments' copies, one launch with seed, the outcome's key.
-- a part of a split launch on a worker's state (bindings/lksplit.c):
-- the kernel as it crossed (a function, or wl.kernel's fields), the
-- options with _part and _parts, the arguments rebuilt over the
-- worker's copy of the device
function wl._kernel_run_part(dev, k, cfg, ...)
  if type(k) == "table" then
    local o = k
    k = wl.kernel(o.fn, { name = o.name, static_shared = o.static_shared,
                          regs = o.regs, cache = o.cache })
    k.mode = o.mode
  end
  dev:_launch(k, kernel_cfg(k, cfg), ...)
end

-- The jobs of launches that give none (warplab run --jobs N; nil: run
-- whole on the calling thread).
function wl.set_launch_jobs(n)
  if n ~= nil and (math.type(n) ~= "integer" or n < 1 or n > 1024) then
    error("wl.set_launch_jobs: an integer from 1 to 1024, or nil", 2)
  end
  local old = launch_jobs
  launch_jobs = n
  return old
end

function wl._kernel_run_one(fn, out, run, seed)
  local d = wl.device(run.device)
  if run.cache and run.cache ~= "none" then d:set_cache_config(run.cache) end
  local made, args = {}, {}
  for key, a in pairs(run.allocs) do
    local alloc = a.space == "managed" and d.malloc_managed or
                  a.space == "constant" and d.constant or d.malloc
    made[key] = alloc(d, a.type, #a.values > 0 and a.values or 0, a.name)
  end
  for i = 1, run.nargs do
    local a = run.args[i]
    if a.array ~= nil then args[i] = made[a.array] else args[i] = a.value end
  end
  local k = fn
  if run.kernel_opts then
    local o = run.kernel_opts
    k = wl.kernel(fn, { name = o.name, static_shared = o.static_shared,
                        regs = o.regs, cache = o.cache })
    k.mode = o.mode
  end
  local cfg = {}
  for key, v in pairs(run.cfg) do cfg[key] = v end
  cfg.seed = seed
  d:launch(k, cfg, table.unpack(args, 1, run.nargs))
  if out then return outcome_key(out(table.unpack(args, 1, run.nargs))) end
  local parts, seen = {}, {}
  for i = 1, run.nargs do
    local a = run.args[i]
    if a.array ~= nil and not seen[a.array] then
      seen[a.array] = true
      local v = args[i]:read()
      for j = 1, #v do v[j] = tostring(v[j]) end
      parts[#parts + 1] = run.allocs[a.array].name .. "=" ..
                          table.concat(v, ",")
    end
  end
  return table.concat(parts, " ")
end
