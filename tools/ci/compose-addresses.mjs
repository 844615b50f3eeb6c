#!/usr/bin/env node
// Reads `docker-compose config` (the resolved file) on stdin and checks that every fixed address in
// it lies in a subnet it declares: each network's gateway and ip_range, each service's
// ipv4_address. Docker refuses the others only at `up` ("failed to allocate gateway"), which
// `config -q` does not reach: .ci/run's gate runs this on each shape filled in as the docs say.
//   docker-compose -f docker-compose.multihost.yml --env-file .env config | node tools/ci/compose-addresses.mjs
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const toNumber = (ip) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
/** [first, last] address of an IPv4 CIDR, or of one address. */
function range(cidr) {
  const [ip, bits = '32'] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  const first = Math.floor(toNumber(ip) / size) * size;
  return [first, first + size - 1];
}

/** The problems of a resolved compose file: one line per address outside every declared subnet. */
export function addressProblems(config) {
  const found = { subnet: [], ip_range: [], gateway: [], ipv4_address: [] };
  for (const m of config.matchAll(/^[ \t]*(?:- )?(subnet|ip_range|gateway|ipv4_address): ['"]?([\d./]+)['"]?[ \t]*$/gm))
    found[m[1]].push(m[2]);
  const subnets = found.subnet.map(range);
  const problems = [];
  for (const kind of ['ip_range', 'gateway', 'ipv4_address']) {
    for (const address of found[kind]) {
      const [first, last] = range(address);
      if (!subnets.some(([low, high]) => first >= low && last <= high))
        problems.push(
          `${kind} ${address} is outside the declared subnet${subnets.length === 1 ? '' : 's'} ${found.subnet.join(', ') || '(none)'}`,
        );
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = addressProblems(readFileSync(0, 'utf8'));
  for (const problem of problems) console.error(problem);
  process.exit(problems.length ? 1 : 0);
}
