import { databaseProject } from '@media-site/db/testing-vitest';

export default databaseProject('encoder');
