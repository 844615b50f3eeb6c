import { editContent, requeueEncode } from '@media-site/db/content';
import { announce, contentRef } from './content-change';
import { cliActor, type Command } from './types';

const optionalText = (value: unknown) => (value === undefined ? undefined : String(value));
/** "beach, Black and White" → ["beach", "Black and White"]; "" → [] (no tags). */
const tagList = (value: unknown) =>
  value === undefined
    ? undefined
    : String(value)
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean);

/** Editing an item's facts and re-encoding a clip: the console's Content screen uses the same services. */
export const contentEditCommands: Record<string, Command> = {
  edit: {
    usage: `edit <site path or URL> [--title T] [--model M] [--date YYYY-MM-DD] [--price 24.50] [--tags "a, b"]
    Changes a photo set's, free photo set's, video's or VOD's title, model (not a free set's), date,
    price (VODs only) or tags (not a free set's: comma-separated, the whole list, "" removes them all).
    A new model name becomes a model. Audited, and every cache drops the old answer (the catalog
    generation moves).`,
    options: {
      title: { type: 'string' },
      model: { type: 'string' },
      date: { type: 'string' },
      price: { type: 'string' },
      tags: { type: 'string' },
    },
    positionals: 1,
    async run([target], flags, ctx) {
      const ref = contentRef(target ?? '');
      const edit = {
        title: optionalText(flags.title),
        model: optionalText(flags.model),
        date: optionalText(flags.date),
        price: optionalText(flags.price),
        tags: tagList(flags.tags),
      };
      const result = await editContent(ctx.knex, ref, edit, { actor: cliActor(ctx), now: (ctx.io.now ?? Date.now)() });
      if (result.generation === null) {
        ctx.io.out(`nothing changed: ${ref.type} ${ref.path} already has these values`);
        return 0;
      }
      await announce(ctx, result.generation);
      ctx.io.out(`edited ${result.changed.join(', ')}: ${ref.type} ${ref.path} (catalog generation ${result.generation})`);
      return 0;
    },
  },
  reencode: {
    usage: `reencode <site path or URL of a video or VOD>
    Queues the clip's encode again from scratch (fresh attempts); an encode worker (encode --watch)
    makes its renditions again. Refused while it is being encoded.`,
    options: {},
    positionals: 1,
    async run([target], _flags, ctx) {
      const ref = contentRef(target ?? '');
      await requeueEncode(ctx.knex, ref, { actor: cliActor(ctx), now: (ctx.io.now ?? Date.now)() });
      ctx.io.out(`queued for encoding again: ${ref.type} ${ref.path}`);
      return 0;
    },
  },
};
