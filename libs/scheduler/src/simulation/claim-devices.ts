/**
 * A scheduled pod's DRA devices as records: PodSchedulingResult.claims keeps them as
 * "request driver/pool/device" lines (" admin" appended for admin access, then
 * " bindingConditions=a,b" and " bindingFailureConditions=c" for a device with binding
 * conditions), the words the explanation prints; CLI documents, stored runs and reports list them
 * field by field.
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
  /** Binding conditions: PreBind waited until the driver reported these True (the simulation assumes it did). */
  bindingConditions?: string[];
  /** Conditions that would have failed the binding. */
  bindingFailureConditions?: string[];
}

/** One record per allocated device, in the claims' order; none without claims. */
export function claimDevicesOf(
  claims: Readonly<Record<string, readonly string[]>> | undefined,
): ClaimDevice[] {
  const out: ClaimDevice[] = [];
  for (const [claim, lines] of Object.entries(claims ?? {}))
    for (const line of lines) {
      const [request, path, ...flags] = line.split(' ');
      const first = path.indexOf('/');
      const last = path.lastIndexOf('/');
      const list = (key: string): string[] | undefined =>
        flags
          .find((f) => f.startsWith(`${key}=`))
          ?.slice(key.length + 1)
          .split(',');
      const bindingConditions = list('bindingConditions');
      const bindingFailureConditions = list('bindingFailureConditions');
      out.push({
        claim,
        request,
        driver: path.slice(0, first),
        pool: path.slice(first + 1, last),
        device: path.slice(last + 1),
        ...(flags.includes('admin') ? { adminAccess: true } : {}),
        ...(bindingConditions ? { bindingConditions } : {}),
        ...(bindingFailureConditions ? { bindingFailureConditions } : {}),
      });
    }
  return out;
}
