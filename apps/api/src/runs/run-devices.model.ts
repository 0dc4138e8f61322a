/**
 * DRA devices of a simulate run as typed fields: the engine's device summary per DeviceClass and
 * node once the run is over (`RunResult.devices`, stored as the result summary's `devices`), and
 * the devices each placed pod's claims were allocated (`Placement.devices`, read from the pod's
 * stored explanation). The same records `schedlab simulate -o json` prints.
 */
import { Field, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { claimDevicesOf, type DeviceClassSummary } from '@schedlab/scheduler';

const UNAVAILABLE_FREE =
  "Of the free ones, those the release's allocator gives no request given the claims already allocated (shared counters or capacity used up, binding conditions or counters with their feature off); null for a run stored before it was counted";
const TAINTED_FREE =
  'Of the other free ones, tainted NoSchedule or NoExecute (only tolerating requests get them)';

@ObjectType('NodeDevices', { description: 'The devices of one class a node can reach' })
export class NodeDevicesView {
  @Field(() => String) @ApiProperty() node!: string;
  @Field(() => Int, { description: "Devices the class selects among the node's and its shared pools'" })
  @ApiProperty({ description: "Devices the class selects among the node's and its shared pools'" })
  total!: number;
  @Field(() => Int, { description: 'Held by allocated claims' })
  @ApiProperty({ description: 'Held by allocated claims' })
  allocated!: number;
  @Field(() => Int) @ApiProperty() free!: number;
  @Field(() => Int, { nullable: true, description: UNAVAILABLE_FREE })
  @ApiProperty({ type: Number, nullable: true, description: UNAVAILABLE_FREE })
  unavailableFree!: number | null;
  @Field(() => Int, { description: TAINTED_FREE })
  @ApiProperty({ description: TAINTED_FREE })
  taintedFree!: number;
}

@ObjectType('DeviceClassDevices', {
  description: 'One DeviceClass: its devices per node (a shared pool counts for each node it reaches)',
})
export class DeviceClassDevicesView {
  @Field(() => String) @ApiProperty() deviceClass!: string;
  @Field(() => [NodeDevicesView], { description: 'Nodes reaching none of its devices are left out' })
  @ApiProperty({ type: [NodeDevicesView] })
  nodes!: NodeDevicesView[];
}

@ObjectType('ClaimDevice', { description: "A device allocated to one of the pod's ResourceClaims" })
export class ClaimDeviceView {
  @Field(() => String, { description: '"namespace/name" of the claim' }) @ApiProperty() claim!: string;
  @Field(() => String, { description: 'The request ("request/subrequest" for a subrequest)' })
  @ApiProperty()
  request!: string;
  @Field(() => String) @ApiProperty() driver!: string;
  @Field(() => String) @ApiProperty() pool!: string;
  @Field(() => String) @ApiProperty() device!: string;
  @Field(() => Boolean, { description: 'Admin access: the device is not held by the claim' })
  @ApiProperty()
  adminAccess!: boolean;
  @Field(() => [String], {
    nullable: true,
    description:
      "Binding conditions: PreBind waited until the device's driver reported these True (the simulation takes it that it did); absent for a device without",
  })
  @ApiProperty({ type: [String], required: false })
  bindingConditions?: string[];
  @Field(() => [String], {
    nullable: true,
    description: 'Conditions that would have failed the binding; absent for a device without',
  })
  @ApiProperty({ type: [String], required: false })
  bindingFailureConditions?: string[];
}

/**
 * The stored summary's device summary as the worker stored it (null for runs without
 * DeviceClasses or stored before devices were); a run stored before unavailableFree was counted
 * lacks that field (the report leaves its cell blank).
 */
export function storedDevicesOf(summary: unknown): DeviceClassSummary[] | null {
  const devices = (summary as { devices?: DeviceClassSummary[] } | null)?.devices;
  return Array.isArray(devices) ? devices : null;
}

/** The device summary as the API shows it: unavailableFree null, not a made-up 0, where not stored. */
export function runDevicesOf(summary: unknown): DeviceClassDevicesView[] | null {
  return (
    storedDevicesOf(summary)?.map((c) => ({
      ...c,
      nodes: c.nodes.map((n) => ({ ...n, unavailableFree: n.unavailableFree ?? null })),
    })) ?? null
  );
}

/** A pod's devices from its stored explanation's `claims`; null when it holds none. */
export function claimDevicesView(claims: Record<string, string[]> | undefined): ClaimDeviceView[] | null {
  const devices = claimDevicesOf(claims);
  return devices.length ? devices.map((d) => ({ ...d, adminAccess: d.adminAccess === true })) : null;
}
