/** An IMDSv2 session against a metadata service: a token from PUT /latest/api/token, then GETs that send it. */
export async function metadata(base: string, ttlSeconds = 600): Promise<(path: string) => Promise<string>> {
  const answer = await fetch(`${base}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': String(ttlSeconds) } });
  if (answer.status !== 200) throw new Error(`metadata token: ${answer.status}`);
  const token = await answer.text();
  return async (p: string) => {
    const res = await fetch(`${base}${p}`, { headers: { 'X-aws-ec2-metadata-token': token } });
    if (res.status !== 200) throw new Error(`metadata GET ${p}: ${res.status}`);
    return res.text();
  };
}
