import { Writable } from 'node:stream';

/** A stream that keeps what is written to it: `chunks` as written, `lines()` the non-empty lines so far. */
export function captureSink() {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const lines = () => chunks.join('').split('\n').filter(Boolean);
  return { sink, chunks, lines };
}
