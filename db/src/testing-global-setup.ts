import { execFileSync } from 'node:child_process';

// When DATABASE_URL / REDIS_URL are unset and a Docker engine answers, start MariaDB 10.11 (the engine compose ships) and Redis 7
// with testcontainers and hand their URLs to the test workers through the environment. A machine
// whose Docker cannot pull them (no image registry reachable, no images loaded) runs the suite as
// it would without Docker: SQLite only, the Redis cases skipped, with one line saying why.
let stop: (() => Promise<void>) | undefined;

function dockerWorks(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

export async function setup(): Promise<void> {
  if ((process.env.DATABASE_URL && process.env.REDIS_URL) || !dockerWorks()) return;
  const given = { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL };
  const stops: Array<() => Promise<unknown>> = [];
  stop = async () => {
    await Promise.all(stops.map((s) => s()));
  };
  try {
    await startContainers(stops);
  } catch (err) {
    await stop().catch(() => undefined);
    stop = undefined;
    for (const [name, value] of Object.entries(given)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    console.warn(`test containers not started (${reason}): MariaDB and Redis tests skipped unless DATABASE_URL / REDIS_URL name servers`);
  }
}

async function startContainers(stops: Array<() => Promise<unknown>>): Promise<void> {
  const { GenericContainer, Wait } = await import('testcontainers');
  if (!process.env.DATABASE_URL) {
    const mysql = await new GenericContainer('mariadb:10.11')
      .withEnvironment({ MYSQL_ROOT_PASSWORD: 'test', MYSQL_DATABASE: 'test' })
      .withExposedPorts(3306)
      .withWaitStrategy(Wait.forLogMessage(/port: 3306/))
      .start();
    stops.push(() => mysql.stop());
    process.env.DATABASE_URL = `mysql://root:test@${mysql.getHost()}:${mysql.getMappedPort(3306)}/test`;
  }
  if (!process.env.REDIS_URL) {
    const redis = await new GenericContainer('redis:7').withExposedPorts(6379).start();
    stops.push(() => redis.stop());
    process.env.REDIS_URL = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
  }
}

export async function teardown(): Promise<void> {
  await stop?.();
}
