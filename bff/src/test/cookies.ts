/** Every Set-Cookie line of a response. */
export function setCookies(res: { headers: Record<string, unknown> }): string[] {
  return ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []);
}

/** The Cookie header a browser sends back for these Set-Cookie lines (their name=value pairs). */
export function cookieHeader(set: string[]): string {
  return set.map((c) => c.split(';')[0]).join('; ');
}

/** The value a response's Set-Cookie gives the media cookie (`media_token`); '' when it sets none. */
export function mediaTokenOf(res: { headers: Record<string, unknown> }): string {
  return (
    setCookies(res)
      .find((c) => c.startsWith('media_token='))
      ?.split(';')[0]
      ?.slice('media_token='.length) ?? ''
  );
}
