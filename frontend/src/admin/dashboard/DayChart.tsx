import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
  /** Dashes tell the lines apart without colour. */
  dash?: number[];
}

const DAY_S = 86_400;
const HEIGHT = 220;
const DAY_STEPS = [1, 2, 3, 7, 14, 28].map((n) => n * DAY_S);

/**
 * A line per series over the days (uPlot, canvas). The canvas is a picture for the eye only: its
 * name says what it shows, and the screen puts the same figures beside it as text and a table.
 */
export function DayChart({
  label,
  days,
  series,
  format = String,
}: {
  label: string;
  days: string[];
  series: ChartSeries[];
  format?: (value: number) => string;
}) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const opts: uPlot.Options = {
      width: Math.max(280, el.clientWidth),
      height: HEIGHT,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: true, range: (_u, min, max) => (min === max ? [min - DAY_S, max + DAY_S] : [min, max]) },
        y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
      },
      axes: [
        // Whole days only, named month/day (UTC): no hour ticks on a short window.
        {
          stroke: '#1b1b1b',
          grid: { stroke: '#e2e2e2' },
          incrs: DAY_STEPS,
          values: (_u, ticks) => ticks.map((t) => new Date(t * 1000).toISOString().slice(5, 10).replace('-', '/')),
        },
        { stroke: '#1b1b1b', grid: { stroke: '#e2e2e2' }, size: 70, values: (_u, ticks) => ticks.map((t) => format(t)) },
      ],
      series: [
        {},
        ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, dash: s.dash, points: { show: days.length <= 31 } })),
      ],
    };
    const chart = new uPlot(opts, [xs, ...series.map((s) => s.values)], el);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(280, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, series, format]);

  return (
    <figure className="admin-chart">
      <div ref={box} role="img" aria-label={label} />
      <figcaption>
        <ul className="admin-chart-key">
          {series.map((s) => (
            <li key={s.label}>
              <span
                aria-hidden="true"
                className="admin-chart-swatch"
                style={{ borderColor: s.color, borderStyle: s.dash ? 'dashed' : 'solid' }}
              />
              {s.label}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
