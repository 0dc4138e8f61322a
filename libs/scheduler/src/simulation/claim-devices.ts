/**
 * A scheduled pod's DRA devices as records: PodSchedulingResult.claims keeps them as
 * "request driver/pool/device" lines (" admin" appended for admin access), the words the
 * explanation prints; CLI documents, stored runs and reports list them field by field.
 */

export interface ClaimDevice {
  /** "namespace/name" of the ResourceClaim. */
  claim: string;
  /** The claim's request (a subrequest as "request/subrequest"). */
  request: string;
  driver: string;
  /** Pool names may hold slashes; driver and device names cannot. */
  pool: string;
  device: string;
  /** Admin access: the device is not held by the claim. */
  adminAccess?: boolean;
}

/** One record per allocated device, in the claims' order; none without claims. */
export function claimDevicesOf(
  claims: Readonly<Record<string, readonly string[]>> | undefined,
): ClaimDevice[] {
  const out: ClaimDevice[] = [];
  for (const [claim, lines] of Object.entries(claims ?? {}))
    for (const line of lines) {
      const [request, path, flag] = line.split(' ');
      const first = path.indexOf('/');
      const last = path.lastIndexOf('/');
      out.push({
        claim,
        request,
        driver: path.slice(0, first),
        pool: path.slice(first + 1, last),
        device: path.slice(last + 1),
        ...(flag === 'admin' ? { adminAccess: true } : {}),
      });
    }
  return out;
}
