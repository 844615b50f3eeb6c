// The title every route gets before (or without) a page-specific one from usePageTitle.
const SECTIONS: Record<string, string> = {
  '': 'Home',
  vod: 'VOD',
  photos: 'Photos',
  videos: 'Videos',
  video: 'Video',
  models: 'Models',
  modelname: 'Models',
  freephotos: 'Free photos',
  members: 'Members',
  search: 'Search',
  '2257': '2257 Compliance Statement',
  privatesales: 'Private Sales',
  join: 'Join',
  contact: 'Contact',
  reports: 'Appeal a report decision',
  links: 'Links',
  forum: 'Forum',
  free: 'Free',
  affiliates: 'Affiliates',
  ccbill: 'Payment',
  login: 'Sign in',
  'forgot-password': 'Forgot password',
  'reset-password': 'Choose a new password',
  'confirm-email': 'Confirm e-mail address',
  account: 'Account',
  'my-list': 'My list',
  unsubscribe: 'Stop release mails',
  welcome: 'Welcome',
  test: 'Test route',
};

const DETAIL: Record<string, string> = {
  vod: 'VOD',
  photos: 'Photo set',
  video: 'Video',
  freephotos: 'Free photos',
};

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function routeTitle(pathname: string): string {
  const [section = '', detail, ...rest] = pathname.split('/').filter(Boolean);
  const name = SECTIONS[section];
  if (name === undefined) return 'Page not found';
  if (!detail) return name;
  if (section === 'search') return `Search: ${decode(detail)}`;
  if (section === 'models' || section === 'modelname') return decode(detail);
  if (section === 'members') return rest.length ? decode(rest[rest.length - 1] ?? '') : name;
  const label = DETAIL[section];
  return label ? `${label} ${decode(detail)}` : name;
}
