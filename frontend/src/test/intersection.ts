import { act } from '@testing-library/react';
import { vi } from 'vitest';

// jsdom has no layout; this stands in for the browser's IntersectionObserver so tests decide when
// something scrolls into view.
export class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly elements = new Set<Element>();

  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.instances.push(this);
  }

  observe(element: Element) {
    this.elements.add(element);
  }

  unobserve(element: Element) {
    this.elements.delete(element);
  }

  disconnect() {
    this.elements.clear();
  }

  takeRecords() {
    return [];
  }

  static install() {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  }

  // Reports every watched element matching `selector` as visible.
  static show(selector: string) {
    act(() => {
      for (const observer of [...FakeIntersectionObserver.instances]) {
        const targets = [...observer.elements].filter((element) => element.matches(selector));
        if (!targets.length) continue;
        const entries = targets.map((target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry);
        observer.callback(entries, observer as unknown as IntersectionObserver);
      }
    });
  }
}
