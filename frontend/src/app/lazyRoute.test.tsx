import { render, screen, fireEvent } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, lazyRoute, loadChunk } from './lazyRoute';
import { RouteErrorBoundary } from './RouteErrorBoundary';

describe('loadChunk', () => {
  it('retries a failed chunk once', async () => {
    const importer = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ ok: 1 });
    await expect(loadChunk(importer)).resolves.toEqual({ ok: 1 });
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it('gives a ChunkLoadError after the second failure', async () => {
    const importer = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(loadChunk(importer)).rejects.toBeInstanceOf(ChunkLoadError);
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it('counts a chunk that never arrives as failed after the time-out', async () => {
    vi.useFakeTimers();
    try {
      const importer = vi.fn(() => new Promise(() => {}));
      const result = loadChunk(importer, 120_000);
      const settled = expect(result).rejects.toBeInstanceOf(ChunkLoadError);
      await vi.advanceTimersByTimeAsync(120_000);
      expect(importer).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(120_000);
      await settled;
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a route whose chunk fails', () => {
  it('offers a reload instead of a blank page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const Broken = lazyRoute(() => Promise.reject<{ Page: () => null }>(new TypeError('Failed to fetch')), 'Page');
    render(
      <RouteErrorBoundary>
        <Suspense fallback={<p>Loading...</p>}>
          <Broken />
        </Suspense>
      </RouteErrorBoundary>,
    );
    expect(await screen.findByText('This page could not be loaded')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalled();
  });
});
