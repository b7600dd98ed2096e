#!/usr/bin/env node
// Before the tests: the system tools they drive must be on the machine. On a fresh Debian
// machine (as root) they are installed from Debian's packages; elsewhere the error says how.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = fs.existsSync('/usr/bin/apt-get');
let updated = false;

function aptInstall(pkgs) {
  if (!isRoot || !hasApt) return false;
  if (!updated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    updated = true;
  }
  const r = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0;
}

function which(cmd) {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  console.log(`meshdx tests: ${chromium} is missing; installing Debian's chromium…`);
  if (!aptInstall(['chromium']) || !fs.existsSync(chromium)) {
    console.error(
      `meshdx tests: Chromium is required for the e2e tests and is not at ${chromium}.\n` +
        `Install it with \`sudo apt-get install -y chromium\`, or set CHROMIUM_PATH to a Chromium binary.`,
    );
    process.exit(1);
  }
}

// Optional: real kubectl for the compatibility tests (they say so when they skip).
if (!which('kubectl') && !aptInstall(['kubernetes-client'])) {
  console.warn(
    'meshdx tests: kubectl not found and could not be installed; the kubectl compatibility tests will be skipped.',
  );
}

// Prometheus for the kube-state-metrics history tests (they fail in CI without it, and say
// they are skipped elsewhere).
const prometheus = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
if (!fs.existsSync(prometheus) && !aptInstall(['prometheus'])) {
  console.warn(
    `meshdx tests: ${prometheus} not found and could not be installed (sudo apt-get install -y prometheus); the Prometheus history tests will be skipped.`,
  );
}
