import { fireEvent, screen, waitFor } from '@testing-library/react';
import type * as ReactDomClient from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../test/render';

// The console's address names its screen: /admin/<screen> opens it (a reload, a bookmark), Back
// returns to the screen before, /admin and a screen the role may not see show the role's first
// screen with the address kept. Driven through the console's own entry (main.tsx), as admin.html runs it.

const roots = vi.hoisted(() => [] as Root[]);
vi.mock('react-dom/client', async (importOriginal) => {
  const actual = await importOriginal<typeof ReactDomClient>();
  return {
    ...actual,
    createRoot: (...args: Parameters<typeof actual.createRoot>) => {
      const root = actual.createRoot(...args);
      roots.push(root);
      return root;
    },
  };
});

const EMPTY: Record<string, unknown> = {
  '/api/admin/reports': { reports: [] },
  '/api/admin/content': { items: [], more: false, page: 1 },
  '/api/admin/ingests': { folders: [], runs: [] },
  '/api/admin/scheduled': { items: [] },
  '/api/admin/passkeys': { passkeys: [], confirmedUntil: null },
};

async function openConsole(path: string, role: 'moderator' | 'support') {
  window.history.replaceState(null, '', path);
  stubFetch((url) => {
    if (url === '/api/admin/me') return json({ name: 'someone', role });
    const body = EMPTY[url.split('?')[0]!];
    return body ? json(body) : json({ error: { message: 'not in this test' } }, 404);
  });
  // uPlot (the dashboard's charts) reads the pixel ratio when it loads; jsdom has no matchMedia.
  vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener() {}, removeEventListener() {} }));
  const element = document.createElement('div');
  element.id = 'admin-root';
  document.body.append(element);
  vi.resetModules();
  await import('./main');
}

const heading = () => screen.findByRole('heading', { level: 1 });
const current = () => screen.getByRole('navigation', { name: 'Console' }).querySelector('[aria-current="page"]')?.textContent;

afterEach(() => {
  for (const root of roots.splice(0)) root.unmount();
  document.getElementById('admin-root')?.remove();
  window.history.replaceState(null, '', '/');
});

describe('the console address', () => {
  it('/admin shows the role first screen and keeps the address', async () => {
    await openConsole('/admin', 'moderator');
    expect((await heading()).textContent).toBe('Reports');
    expect(current()).toBe('Reports');
    expect(window.location.pathname).toBe('/admin');
    await waitFor(() => expect(document.title).toBe('Console · Operator console'));
  });

  it('a deep link opens its screen, trailing slash or not', async () => {
    await openConsole('/admin/content/', 'moderator');
    expect((await heading()).textContent).toBe('Content');
    expect(current()).toBe('Content');
    await waitFor(() => expect(document.title).toBe('Content · Operator console'));
  });

  it('a screen the role may not see shows its first screen, the address kept', async () => {
    await openConsole('/admin/reports', 'support');
    expect((await heading()).textContent).toBe('Members');
    expect(current()).toBe('Members');
    expect(window.location.pathname).toBe('/admin/reports');
    expect(screen.queryByRole('link', { name: 'Reports' })).toBeNull();
  });

  it('the page title never names a screen the role may not see (as at /admin: "Console")', async () => {
    await openConsole('/admin/reports', 'support');
    expect((await heading()).textContent).toBe('Members');
    await waitFor(() => expect(document.title).toBe('Console · Operator console'));
  });

  it('the menu pushes /admin/<screen>; Back returns screen by screen; the screen shown adds no entry', async () => {
    await openConsole('/admin', 'moderator');
    await heading();
    const entries = window.history.length;
    fireEvent.click(screen.getByRole('link', { name: 'Reports' }));
    expect(window.history.length).toBe(entries);
    expect(window.location.pathname).toBe('/admin');

    fireEvent.click(screen.getByRole('link', { name: 'Content' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Content'));
    expect(window.location.pathname).toBe('/admin/content');
    fireEvent.click(screen.getByRole('link', { name: 'Ingest' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Ingest'));
    expect(window.location.pathname).toBe('/admin/ingest');
    expect(window.history.length).toBe(entries + 2);

    window.history.back();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Content'));
    expect(current()).toBe('Content');
    window.history.back();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Reports'));
    expect(window.location.pathname).toBe('/admin');
  });
});
