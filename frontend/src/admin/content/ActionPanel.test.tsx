import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { contentApi, type ContentItem } from '../shared/api';
import { ActionPanel } from './ActionPanel';

const video: ContentItem = {
  type: 'video',
  path: 'clip-one',
  title: 'Beach walk',
  model: 'Anna Alpha',
  date: '2024-06-01',
  price: null,
  publishAt: null,
  takenDown: false,
  encode: null,
  tags: ['beach', 'black and white'],
};

function renderEdit(item: ContentItem) {
  const onDone = vi.fn<(call: () => Promise<string>) => void>();
  render(<ActionPanel action={{ kind: 'edit', item }} busy={false} onDone={onDone} onCancel={vi.fn()} />);
  return onDone;
}

describe('the Content screen edit form', () => {
  it('shows the tags joined by commas and sends the new list with the other changes', async () => {
    const edit = vi.spyOn(contentApi, 'edit').mockResolvedValue({ changed: ['title', 'tags'], generation: 2, item: video });
    const onDone = renderEdit(video);
    const field = screen.getByLabelText('Tags');
    expect(field).toHaveProperty('value', 'beach, black and white');
    expect(field.getAttribute('aria-describedby')).toBe(screen.getByText(/^Comma-separated, up to 12, e\.g\. beach, black and white$/).id);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Beach run' } });
    fireEvent.change(field, { target: { value: 'Beach,  city , ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await onDone.mock.calls[0]![0]()).toBe('Video clip-one: title, tags saved.');
    expect(edit).toHaveBeenCalledWith('/video/clip-one', { title: 'Beach run', tags: ['Beach', 'city'] });
  });

  it('leaves the tags out when untouched, and an emptied field removes them all', async () => {
    const edit = vi.spyOn(contentApi, 'edit').mockResolvedValue({ changed: [], generation: null, item: video });
    const onDone = renderEdit(video);
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await onDone.mock.calls[0]![0]();
    expect(edit).toHaveBeenLastCalledWith('/video/clip-one', {});
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await onDone.mock.calls[1]![0]();
    expect(edit).toHaveBeenLastCalledWith('/video/clip-one', { tags: [] });
  });

  it('has no Tags field for a free photo set', () => {
    const { tags: _, ...rest } = video;
    renderEdit({ ...rest, type: 'freephotoset', model: null });
    expect(screen.getByLabelText('Title')).toBeTruthy();
    expect(screen.queryByLabelText('Tags')).toBeNull();
  });
});
