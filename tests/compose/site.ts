import { chmod, copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { repoRoot } from '../../scripts/lib/site';
import { must, type ComposeProject } from './compose';

// What the compose suites (compose.test.ts, multihost.test.ts) do to a running site: an ingest
// folder for the operator image, and a member's sign-in through a front door.

export interface IngestClip {
  /** The clip's folder, its site path. */
  path: string;
  /** The original's name after ingest: `<prename>001.mpg`. */
  file: string;
  title: string;
}

/** An ingest folder: a photo set and the clips with ready-made frames (no ffmpeg needed). */
export async function buildIngestFolder(clips: IngestClip[]): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'compose-ingest-'));
  const jpeg = async (rel: string, colour: string) => {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await sharp({ create: { width: 320, height: 200, channels: 3, background: colour } })
      .jpeg()
      .toFile(join(root, rel));
  };
  for (const n of ['p1', 'p2']) await jpeg(`photos/set-one/${n}.jpg`, '#336699');
  await writeFile(
    join(root, 'photos/set-one/meta.json'),
    JSON.stringify({ updatename: 'Compose Set', modelname: 'Model C1', datetoupload: '2025-01-02' }),
  );
  for (const [i, clip] of clips.entries()) {
    for (const n of ['02', '05', '10', '15']) await jpeg(`videothumbs/${clip.path}/${clip.path}_${n}.jpg`, '#993366');
    await mkdir(join(root, 'video', clip.path), { recursive: true });
    const meta = {
      updatename: clip.title,
      modelname: 'Model C1',
      datetoupload: `2025-01-${String(3 + i).padStart(2, '0')}`,
      prename: clip.file.replace(/001\.mpg$/, ''),
    };
    await writeFile(join(root, 'video', clip.path, 'meta.json'), JSON.stringify(meta));
    await copyFile(join(repoRoot, 'ops/fixtures/sample.mp4'), join(root, 'video', clip.path, 'clip.mp4'));
  }
  // The containers run as uid 1000: everything readable by all.
  const open = async (dir: string): Promise<void> => {
    await chmod(dir, 0o755);
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (e.isDirectory()) await open(join(dir, e.name));
      else await chmod(join(dir, e.name), 0o644);
    }
  };
  await open(root);
  return root;
}

/**
 * A photo set `path` for the console's ingest: copied into the media volume's incoming
 * folder as `<batch>` through the operator image (as an operator would, with a mount), where the
 * ingest-worker finds it.
 */
export async function placeConsoleBatch(project: ComposeProject, batch: string, path: string, title: string): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'compose-batch-'));
  try {
    await mkdir(join(root, 'photos', path), { recursive: true });
    await sharp({ create: { width: 320, height: 200, channels: 3, background: '#447755' } })
      .jpeg()
      .toFile(join(root, 'photos', path, 'p1.jpg'));
    await writeFile(
      join(root, 'photos', path, 'meta.json'),
      JSON.stringify({ updatename: title, modelname: 'Model C2', datetoupload: '2025-02-01' }),
    );
    for (const dir of [root, join(root, 'photos'), join(root, 'photos', path)]) await chmod(dir, 0o755);
    for (const f of ['p1.jpg', 'meta.json']) await chmod(join(root, 'photos', path, f), 0o644);
    await must(
      project.compose(
        [
          'run',
          '--rm',
          '-T',
          '-v',
          `${root}:/in:ro`,
          '--entrypoint',
          'sh',
          'operator',
          '-c',
          `mkdir -p /srv/media/incoming && cp -R /in /srv/media/incoming/${batch}`,
        ],
        { timeoutMs: 120_000 },
      ),
      'copy the batch into the media volume',
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Signs a member in through `base` (a front door): the session and media token as one Cookie value. */
export async function signInThrough(base: string, member: { username: string; password: string }): Promise<string> {
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { Origin: base, 'Content-Type': 'application/json' },
    body: JSON.stringify(member),
  });
  if (login.status !== 200) throw new Error(`sign-in: ${login.status} ${await login.text()}`);
  const sid = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('sid='))
    ?.split(';')[0];
  const me = await fetch(`${base}/api/me`, { headers: { Cookie: sid ?? '' } });
  const token = me.headers
    .getSetCookie()
    .find((c) => c.startsWith('media_token='))
    ?.split(';')[0];
  if (!sid || !token) throw new Error(`no session or media token (me: ${me.status})`);
  return `${sid}; ${token}`;
}

/** `ops catalog ingest` of a host folder in the project's operator image; its output. */
export function ingestIn(project: ComposeProject, dir: string): Promise<string> {
  return must(
    project.compose(['run', '--rm', '-T', '-v', `${dir}:/srv/incoming:ro`, 'operator', 'ops', 'catalog', 'ingest', '/srv/incoming'], {
      timeoutMs: 180_000,
    }),
    'ops catalog ingest',
  );
}

/** One SQL statement as root in a database service of the project (rows tab-separated, no header). */
export async function mysqlIn(project: ComposeProject, sql: string, service = 'mysql'): Promise<string> {
  const out = await must(
    project.compose(['exec', '-T', service, 'sh', '-c', 'exec mysql -N -uroot -p"$MYSQL_ROOT_PASSWORD" "$MYSQL_DATABASE"'], { input: sql }),
    `mysql on ${service}`,
  );
  return out.trim();
}

/** A suite's end: the project down with its volumes, its env file and the ingest folder removed. */
export async function tearDown(project: ComposeProject | undefined, ingestDir: string): Promise<void> {
  if (project) {
    // The monitoring profile's services too: `down` leaves a profile's services alone unless it is named.
    const down = await project.compose(['--profile', 'monitoring', 'down', '-v', '--remove-orphans'], { timeoutMs: 180_000 });
    if (down.code !== 0) console.error(`compose down -v failed: ${down.stderr}`);
    await rm(dirname(project.envFile), { recursive: true, force: true });
  }
  if (ingestDir) await rm(ingestDir, { recursive: true, force: true });
}
