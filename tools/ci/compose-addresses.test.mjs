import { describe, expect, it } from 'vitest';
import { addressProblems } from './compose-addresses.mjs';

// The compose gate's address check (.ci/run): what `docker-compose config` resolved, as YAML text.
const resolved = (subnet, gateway, nginx) => `networks:
  default:
    ipam:
      config:
      - gateway: ${gateway}
        ip_range: 172.30.90.128/25
        subnet: ${subnet}
services:
  nginx-a:
    networks:
      default:
        ipv4_address: ${nginx}
`;

describe("the compose gate's address check", () => {
  it('passes a file whose gateway, range and fixed addresses lie in its subnet', () => {
    expect(addressProblems(resolved('172.30.90.0/24', '172.30.90.1', '172.30.90.10'))).toEqual([]);
  });

  it('names each address outside it: the multi-host file under the single-host subnet of .env.example', () => {
    expect(addressProblems(resolved('172.30.89.0/24', '172.30.90.1', '172.30.90.10'))).toEqual([
      'ip_range 172.30.90.128/25 is outside the declared subnet 172.30.89.0/24',
      'gateway 172.30.90.1 is outside the declared subnet 172.30.89.0/24',
      'ipv4_address 172.30.90.10 is outside the declared subnet 172.30.89.0/24',
    ]);
  });
});
