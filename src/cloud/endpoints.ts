/**
 * Default endpoints, as the provider publishes them, and the signing region that goes with each.
 * Every one can be replaced by config/client (endpoint, iam_endpoint, sts_endpoint + sts_region).
 */

export interface Endpoint {
  url: string;
  /** The region the signature's credential scope must name for this endpoint. */
  region: string;
}

/** A provider region name (us-east-1, us-gov-west-1, ap-northeast-3): what a regional endpoint can be made from. */
export function isRegionName(region: string): boolean {
  return /^[a-z]{2}(-[a-z]+)+-\d+$/.test(region);
}

/** The DNS suffix of a region's partition. */
function dnsSuffix(region: string): string {
  return region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
}

export function computeEndpoint(region: string, override?: string): Endpoint {
  return { url: override || `https://ec2.${region}.${dnsSuffix(region)}`, region };
}

/**
 * IAM is global per partition and signs for the partition's home region. The partition is guessed from
 * `region` when one is known (GovCloud, China); otherwise the commercial one.
 */
export function identityEndpoint(override?: string, region?: string): Endpoint {
  if (region?.startsWith('us-gov-')) return { url: override || 'https://iam.us-gov.amazonaws.com', region: 'us-gov-west-1' };
  if (region?.startsWith('cn-')) return { url: override || 'https://iam.cn-north-1.amazonaws.com.cn', region: 'cn-north-1' };
  return { url: override || 'https://iam.amazonaws.com', region: 'us-east-1' };
}

/**
 * STS: the global endpoint signed for us-east-1, unless a region is given (sts_region, or the caller's),
 * in which case the regional endpoint; an sts_endpoint override keeps its URL and signs for that region.
 */
export function tokenServiceEndpoint(override?: string, region?: string): Endpoint {
  if (override) return { url: override, region: region || 'us-east-1' };
  if (region) return { url: `https://sts.${region}.${dnsSuffix(region)}`, region };
  return { url: 'https://sts.amazonaws.com', region: 'us-east-1' };
}
