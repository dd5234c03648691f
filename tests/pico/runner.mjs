// An emulated Raspberry Pi Pico for the test level in tests/pico: rp2040js runs the RP2040
// boot ROM and a MicroPython UF2 image; the USB serial port and the GPIO pins are bridged to
// the Python side (emulated_pico.py), which gives the host a pseudo-terminal.
//
//   node runner.mjs <rp2040js index.js> <boot ROM .bin> <image .uf2> <control fd>
//
// fd 0 / fd 1: the bytes of the USB CDC serial line (host -> board / board -> host).
// <control fd> (a socket): the control channel, one JSON object per line both ways (see emulated_pico.py).
// fd 2: diagnostics.
//
// Three things stock rp2040js 1.4.1 does that a runner must undo (see docs/pico.md):
// 1. The ROM's flash erase and program routines do nothing, so MicroPython's file system
//    cannot format: both entry points are replaced by breakpoints done here in JavaScript
//    (erase fills with 0xFF, program ANDs, as NOR flash does).
// 2. Every armed USB OUT transfer is answered at once, empty when the host sent nothing: the
//    CPU would take a USB interrupt every 10 us. A transfer is held here until bytes come.
// 3. An idle core jumps to its next alarm, so emulated time would run ahead of the wall
//    clock (a 2 s sleep in no time): an idle core advances only toward the wall clock.
//    A busy core runs slower than a Pico (each instruction costs its cycles), so emulated
//    time falls behind the wall clock; an idle core catches up, at most CATCH_UP times
//    as fast as the wall clock, so the board and its host keep roughly one time and the
//    board never sees its host fall silent for a catch-up.
// It also models what the chip's pads do and rp2040js does not: an input with its pull-up
// enabled reads high unless the test drives it.
import { readFileSync } from "node:fs";
import net from "node:net";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [, , libPath, romPath, imagePath, controlFd] = process.argv;
const { RP2040, USBCDC, ConsoleLogger, LogLevel } = await import(pathToFileURL(libPath).href);
const { SimulationClock } = await import(
  pathToFileURL(libPath.replace(/index\.js$/, "clock/simulation-clock.js")).href);

const NS_PER_CYCLE = 8; // 125 MHz
const FLASH_XIP = 0x10000000;
const WATCHDOG_BASE = 0x40058000;
const PADS_BANK0_BASE = 0x4001c000;
const FUNCTION_PWM = 4;
const FUNCTION_SIO = 5;
const BREAK_ERASE = 0x51;
const BREAK_PROGRAM = 0x52;
const USB_CHUNK = 64; // one full-speed bulk packet per OUT transfer
const romBytes = readFileSync(romPath);
const ROM = new Uint32Array(romBytes.buffer, romBytes.byteOffset, romBytes.length / 4).slice();
const IMAGE = readFileSync(imagePath);

const control = new net.Socket({ fd: Number(controlFd), readable: true, writable: true });
function tell(message) {
  control.write(JSON.stringify(message) + "\n");
}
function log(text) {
  process.stderr.write(`emulated pico: ${text}\n`);
}

// --- the chip: built at power-on and again at every reset (flash and watchdog kept) ---

let mcu = null;
let clock = null;
let cdc = null;
let boots = 0;
let heldRead = null; // an OUT transfer the firmware armed while the host had nothing to send
let hostBytes = []; // bytes from the host not yet taken by the firmware (arrays of bytes)
let pendingReset = null; // "watchdog" | "power": done between two batches, never mid-instruction
let hung = false; // the CPU executes nothing (a hung loop); time and peripherals go on
const driven = new Map(); // gpio -> level the test drives (absent: the pad's idle level)
const applied = new Map(); // gpio -> level last given to the pin
const watched = new Map(); // gpio -> last reported state string
let flashImage = null;

function loadUF2(flash) {
  for (let at = 0; at + 512 <= IMAGE.length; at += 512) {
    const block = new DataView(IMAGE.buffer, IMAGE.byteOffset + at, 512);
    if (block.getUint32(0, true) !== 0x0a324655 || block.getUint32(4, true) !== 0x9e5d5157) continue;
    const target = block.getUint32(12, true);
    const size = block.getUint32(16, true);
    flash.set(IMAGE.subarray(at + 32, at + 32 + size), target - FLASH_XIP);
  }
}

function patchFlashRoutines(chip) {
  const rom16 = new Uint16Array(chip.bootrom.buffer);
  let table = rom16[0x14 / 2];
  const code = (a, b) => a.charCodeAt(0) | (b.charCodeAt(0) << 8);
  const wanted = new Map([[code("R", "E"), BREAK_ERASE], [code("R", "P"), BREAK_PROGRAM]]);
  let found = 0;
  for (; rom16[table / 2] !== 0; table += 4) {
    const tag = wanted.get(rom16[table / 2]);
    if (tag !== undefined) {
      rom16[(rom16[table / 2 + 1] & ~1) / 2] = 0xbe00 | tag; // BKPT #tag
      found += 1;
    }
  }
  if (found !== 2) throw new Error("the boot ROM has no flash_range_erase/program entries");
}

function onBreak(chip, tag) {
  const core = chip.core;
  const r = core.registers;
  if (tag === BREAK_ERASE) {
    chip.flash.fill(0xff, r[0], Math.min(r[0] + r[1], chip.flash.length));
  } else if (tag === BREAK_PROGRAM) {
    for (let i = 0; i < r[2]; i++) chip.flash[r[0] + i] &= chip.readUint8(r[1] + i);
  } else {
    log(`breakpoint ${tag} at ${(core.PC - 2).toString(16)}: the CPU stops`);
    hung = true;
    return;
  }
  core.PC = core.LR & ~1; // return from the ROM routine
}

function build(reason) {
  const endedAt = clock ? clock.nanos / 1000 : 0; // the last boot's time when it ended
  const keptFlash = mcu ? mcu.flash.slice() : null;
  const oldWatchdog = mcu ? mcu.peripherals[peripheralKey(WATCHDOG_BASE)] : null;
  clock = new SimulationClock();
  const chip = new RP2040(clock);
  chip.logger = new ConsoleLogger(LogLevel.Error);
  chip.loadBootrom(ROM);
  patchFlashRoutines(chip);
  if (keptFlash) chip.flash.set(keptFlash);
  else loadUF2(chip.flash);
  chip.core.PC = FLASH_XIP; // into the image's second stage boot loader, as the ROM would jump
  chip.onBreak = (tag) => onBreak(chip, tag);
  const watchdog = chip.peripherals[peripheralKey(WATCHDOG_BASE)];
  if (oldWatchdog && reason === "watchdog") { // the reason and scratch registers survive it
    watchdog.reason = oldWatchdog.reason;
    watchdog.scratchData.set(oldWatchdog.scratchData);
  }
  watchdog.onWatchdogTrigger = () => {
    // the chip resets: stop the watchdog's alarm, which would otherwise fire again and
    // again at once (its counter stays at zero) and hold up everything else
    watchdog.alarm.enable = false;
    pendingReset = "watchdog";
  };
  const pads = chip.peripherals[peripheralKey(PADS_BANK0_BASE)];
  const writePad = pads.writeUint32.bind(pads);
  pads.writeUint32 = (offset, value) => {
    writePad(offset, value);
    const gpio = (offset - 4) >>> 2;
    if (gpio >= 0 && gpio < 30) applyLevel(gpio);
  };
  mcu = chip;
  clockBase.emu = 0;
  clockBase.wall = wallNs();
  applied.clear();
  heldRead = null;
  hung = false;
  feeding = null;
  connectUSB(chip);
  for (const gpio of driven.keys()) applyLevel(gpio);
  boots += 1;
  // why: "power", or the watchdog's REASON: "timer" (it went unfed) or "forced" (a reset
  // asked for, e.g. machine.reset())
  const why = reason === "power" ? "power" : watchdog.reason & 1 ? "timer" : "forced";
  tell({ event: "boot", boot: boots, reason: why, ended_us: endedAt });
}

function peripheralKey(address) {
  return (address >>> 14) << 2;
}

function connectUSB(chip) {
  cdc = new USBCDC(chip.usbCtrl);
  cdc.onSerialData = (data) => process.stdout.write(Buffer.from(data));
  const usb = chip.usbCtrl;
  const answer = usb.onEndpointRead;
  usb.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return answer(endpoint, size);
    heldRead = { endpoint, size };
    feedUSB();
  };
}

function feedUSB() {
  if (heldRead === null || hostBytes.length === 0) return;
  const take = Math.min(heldRead.size, USB_CHUNK);
  const out = [];
  while (out.length < take && hostBytes.length) {
    const head = hostBytes[0];
    const n = Math.min(take - out.length, head.length);
    out.push(...head.subarray(0, n));
    if (n === head.length) hostBytes.shift();
    else hostBytes[0] = head.subarray(n);
  }
  const { endpoint } = heldRead;
  heldRead = null;
  mcu.usbCtrl.endpointReadDone(endpoint, new Uint8Array(out));
}

// --- pins ---

function applyLevel(gpio) {
  const pin = mcu.gpio[gpio];
  let level = driven.get(gpio);
  if (level === undefined) level = pin.pullupEnabled ? 1 : 0; // no pull: reads low here
  if (applied.get(gpio) === level) return;
  applied.set(gpio, level);
  pin.setInputValue(level === 1);
}

function drive(gpio, level, tag) {
  if (level === null) driven.delete(gpio);
  else driven.set(gpio, level);
  applyLevel(gpio);
  const t_us = clock.nanos / 1000;
  if (tag !== undefined) tell({ event: "driven", gpio, level, t_us, boot: boots, tag });
  return t_us;
}

/** A pin's output as the test sees it: level 0/1, "z" when not driven, and PWM duty. */
function outputState(gpio) {
  const pin = mcu.gpio[gpio];
  const fn = pin.functionSelect;
  if (fn === FUNCTION_PWM) {
    const slice = mcu.pwm.channels[(gpio >> 1) & 7];
    const cc = gpio & 1 ? slice.cc >>> 16 : slice.cc & 0xffff;
    const on = (slice.csr & 1) === 1 ? cc / (slice.top + 1) : 0;
    return { level: on > 0 ? 1 : 0, duty: Math.min(1, on) };
  }
  if (fn === FUNCTION_SIO && pin.outputEnable) {
    const level = pin.outputValue ? 1 : 0;
    return { level, duty: level };
  }
  return { level: "z", duty: 0 };
}

function reportOutputs() {
  for (const [gpio, last] of watched) {
    const state = outputState(gpio);
    const key = `${state.level}/${state.duty.toFixed(3)}`;
    if (key !== last) {
      watched.set(gpio, key);
      tell({ event: "out", gpio, ...state, t_us: clock.nanos / 1000, boot: boots });
    }
  }
}

// Stimuli at emulated instants: a pin driven at an absolute time of this boot, or a delay
// after a watched output reaches a level (e.g. 80 ms after "go" lights).
const triggers = []; // { gpio, level, then: [{gpio, level, delay_us, tag}] }
const stimuli = new Set(); // the alarms of steps still to come (a "clear" cancels them)

function schedule(steps, fromNs) {
  for (const step of steps) {
    const at = fromNs + step.delay_us * 1000;
    const fire = () => drive(step.gpio, step.level, step.tag);
    if (at <= clock.nanos) fire();
    else {
      const alarm = clock.createAlarm(() => {
        stimuli.delete(alarm);
        fire();
      });
      stimuli.add(alarm);
      alarm.schedule(at - clock.nanos);
    }
  }
}

// Forget every stimulus still to come: a test's presses must never fire in the next test's
// duel (a test that failed, or timed out, before its trigger's output came).
function clearStimuli() {
  const dropped = triggers.length + stimuli.size;
  triggers.length = 0;
  for (const alarm of stimuli) alarm.cancel();
  stimuli.clear();
  return dropped;
}

function checkTriggers() {
  for (let i = triggers.length - 1; i >= 0; i--) {
    const trig = triggers[i];
    const now = outputState(trig.gpio).level;
    if (now !== trig.level) trig.armed = true; // fires on reaching the level, not on being there
    else if (trig.armed) {
      triggers.splice(i, 1);
      schedule(trig.then, clock.nanos);
    }
  }
}

// The launcher: while the motor turns, a card passes the break-beam sensor (its input low
// for CARD_LOW_US) every CARD_EVERY_US after SPINUP_US, unless the test jammed it.
let CARD_PIN = null; // the sensor's and the H-bridge's pins, from the "launcher" request
let MOTOR_PINS = [];
const SPINUP_US = 120_000;
const CARD_EVERY_US = 100_000;
const CARD_LOW_US = 4_000;
let jammed = false;
let feeding = null; // the alarms of the running motor's cards
let cardsSeen = 0;

function runLauncher() {
  if (CARD_PIN === null) return;
  const turning = MOTOR_PINS.some((gpio) => outputState(gpio).duty > 0);
  if (turning && feeding === null && !jammed) {
    const run = { alarms: [] };
    feeding = run;
    const card = (first) => {
      const alarm = clock.createAlarm(() => {
        if (feeding !== run) return;
        drive(CARD_PIN, 0);
        cardsSeen += 1;
        clock.createAlarm(() => drive(CARD_PIN, null)).schedule(CARD_LOW_US * 1000);
        card(false);
      });
      alarm.schedule((first ? SPINUP_US : CARD_EVERY_US) * 1000);
    };
    card(true);
  } else if (!turning && feeding !== null) {
    feeding = null;
  }
}

// --- running: batches of instructions, idle time paced by the wall clock ---

const wallNs = () => Number(process.hrtime.bigint());
let lastWall = wallNs();
let timer = null;
let stopped = false;
// Where emulated time would be if it ran with the wall clock since this boot.
const clockBase = { emu: 0, wall: wallNs() };
const CATCH_UP = 3;
const stats = { instructions: 0, busyNs: 0, busyWallNs: 0, idleNs: 0, since: wallNs() };
// The core's speed running flat out (emulated ns per wall ns while executing), smoothed over
// the last busy stretches: how much wall time the board needs for its own work right now.
const speed = { emuNs: 0, wallNs: 0 };
const SPEED_WINDOW_NS = 2e9; // of wall time: the last two seconds or so count

function run() {
  timer = null;
  if (stopped) return;
  const core = () => mcu.core;
  const sliceEnd = wallNs() + 5e6;
  let sleepMs = 0;
  while (!stopped) {
    if (pendingReset !== null) {
      const reason = pendingReset;
      pendingReset = null;
      build(reason);
    }
    const now = wallNs();
    const passed = now - lastWall;
    lastWall = now;
    if (hung || core().waiting) {
      // idle: the clock moves toward where the wall clock says it should be (never past it,
      // never past the next alarm), at most CATCH_UP times as fast as the wall clock
      const lag = clockBase.emu + (now - clockBase.wall) - clock.nanos;
      const room = Math.max(0, Math.min(lag, passed * CATCH_UP));
      const toAlarm = clock.nextAlarm ? clock.nanosToNextAlarm : Infinity;
      const step = Math.min(room, toAlarm);
      clock.tick(step);
      stats.idleNs += step;
      if (!hung && !core().waiting) continue;
      if (step === room && lag <= room) { // caught up with the wall clock: wait for it
        sleepMs = Math.min(2, (toAlarm - step) / 1e6);
        break;
      }
    } else {
      const before = clock.nanos;
      const wallBefore = wallNs();
      let i = 0;
      for (; i < 2000 && !core().waiting && pendingReset === null && !hung; i++) {
        const cycles = core().executeInstruction();
        clock.tick(cycles * NS_PER_CYCLE);
      }
      const spent = wallNs() - wallBefore;
      stats.instructions += i;
      stats.busyNs += clock.nanos - before;
      stats.busyWallNs += spent;
      speed.emuNs += clock.nanos - before;
      speed.wallNs += spent;
      if (speed.wallNs > SPEED_WINDOW_NS) { // forget the older half
        speed.emuNs /= 2;
        speed.wallNs /= 2;
      }
    }
    reportOutputs();
    runLauncher();
    if (triggers.length) checkTriggers();
    if (wallNs() > sliceEnd) break; // let the host's bytes and requests in
  }
  reportOutputs();
  if (triggers.length) checkTriggers();
  timer = sleepMs >= 1 ? setTimeout(run, Math.floor(sleepMs)) : setImmediate(run);
  timer.kind = sleepMs >= 1 ? "timeout" : "immediate";
}

function wake() {
  if (timer !== null && timer.kind === "timeout") {
    clearTimeout(timer);
    timer = setImmediate(run);
    timer.kind = "immediate";
  }
}

// --- the host's bytes and the control channel ---

process.stdin.on("data", (chunk) => {
  hostBytes.push(new Uint8Array(chunk));
  feedUSB();
  wake();
});
process.stdin.on("end", () => shutdown());

function handle(request) {
  const op = request.op;
  if (op === "stats") {
    const out = { ...stats, wallNs: wallNs() - stats.since };
    Object.assign(stats, { instructions: 0, busyNs: 0, busyWallNs: 0, idleNs: 0,
      since: wallNs() });
    return out;
  }
  if (op === "speed") { // emulated time per wall time while the core runs flat out
    return { speed: speed.wallNs > 0 ? speed.emuNs / speed.wallNs : null, t_us: clock.nanos / 1000 };
  }
  if (op === "clear") return { dropped: clearStimuli() };
  if (op === "now") return { t_us: clock.nanos / 1000, boot: boots };
  if (op === "drive") return { t_us: drive(request.gpio, request.level, request.tag) };
  if (op === "watch") {
    for (const gpio of request.gpios) if (!watched.has(gpio)) watched.set(gpio, "");
    reportOutputs();
    return {};
  }
  if (op === "read") {
    const out = {};
    for (const gpio of request.gpios) out[gpio] = outputState(gpio);
    return { pins: out, t_us: clock.nanos / 1000 };
  }
  if (op === "at") { // steps at absolute emulated times of this boot
    const base = 0;
    schedule(request.steps.map((s) => ({ ...s, delay_us: s.at_us })), base);
    return {};
  }
  if (op === "when") {
    triggers.push({ gpio: request.gpio, level: request.level, then: request.steps, armed: false });
    return {};
  }
  if (op === "launcher") {
    CARD_PIN = request.card;
    MOTOR_PINS = request.motors;
    return {};
  }
  if (op === "jam") {
    jammed = request.jammed;
    if (jammed) feeding = null;
    return { cards: cardsSeen };
  }
  if (op === "hang") {
    hung = true;
    return { t_us: clock.nanos / 1000 };
  }
  if (op === "power") { // a power cycle: the flash stays, nothing else does
    pendingReset = "power";
    wake();
    return {};
  }
  throw new Error(`unknown op ${op}`);
}

createInterface({ input: control }).on("line", (line) => {
  if (!line.trim()) return;
  let request = {};
  try {
    request = JSON.parse(line);
    tell({ id: request.id, ok: true, ...handle(request) });
  } catch (error) {
    tell({ id: request.id, ok: false, error: String(error && error.message ? error.message : error) });
  }
  wake();
});
control.on("end", () => shutdown());

function shutdown() {
  stopped = true;
  if (timer !== null) (timer.kind === "timeout" ? clearTimeout : clearImmediate)(timer);
  control.end();
  process.exitCode = 0;
  setImmediate(() => process.exit(0));
}

build("power");
run();
