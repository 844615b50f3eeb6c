import { textParam } from '../shared/params';

export const SEARCH_TERM_MAX = 100;
export const searchTermParam = textParam('search term', SEARCH_TERM_MAX);
