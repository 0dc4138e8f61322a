// Generated from the kind schemas (schemas.ts) by checksModuleSource (schema-check.ts): do not
// edit. `UPDATE_KIND_CHECKS=1 npx jest libs/k8s/src/schema-check.spec.ts` writes it again.
import { REFINEMENTS, codePointLength, isObject, isPlainData } from './schema-refinements';

const r0 = REFINEMENTS.quantity();
const r1 = REFINEMENTS.resourceAmounts();
const r2 = REFINEMENTS.oneOf(['TCP', 'UDP', 'SCTP'], false);
const r3 = REFINEMENTS.oneOf(['Always'], false);
const r4 = REFINEMENTS.oneOf(['PreemptLowerPriority', 'Never'], false);
const r5 = REFINEMENTS.oneOf(['Exists', 'Equal'], true);
const r6 = REFINEMENTS.oneOf(['NoSchedule', 'PreferNoSchedule', 'NoExecute'], true);
const r7 = REFINEMENTS.toleration();
const r8 = REFINEMENTS.oneOf(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'], false);
const r9 = REFINEMENTS.oneOf(['In', 'NotIn'], false);
const r10 = REFINEMENTS.labelSelector();
const r11 = REFINEMENTS.oneOf(['DoNotSchedule', 'ScheduleAnyway'], false);
const r12 = REFINEMENTS.oneOf(['Honor', 'Ignore'], false);
const r13 = REFINEMENTS.oneOf(['NoSchedule', 'PreferNoSchedule', 'NoExecute'], false);
const r14 = REFINEMENTS.oneOf(['Delete', 'Retain'], false);
const r15 = REFINEMENTS.oneOf(['Immediate', 'WaitForFirstConsumer'], false);

function c1(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  if (!(v.length >= 2 || codePointLength(v) >= 1)) return false;
  return true;
}

function c2(v: unknown): boolean {
  if (v != null && !(typeof v === 'string')) return false;
  return true;
}

function c4(v: unknown): boolean {
  if (!isPlainData(v) || Object.getOwnPropertySymbols(v).length > 0) return false;
  for (const k in v) if (!(typeof v[k] === 'string')) return false;
  return true;
}

function c3(v: unknown): boolean {
  if (v != null && !c4(v)) return false;
  return true;
}

function c0(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'name':
        if (!c1(v[key])) return false;
        required++;
        break;
      case 'namespace':
        if (!c2(v[key])) return false;
        break;
      case 'labels':
        if (!c3(v[key])) return false;
        break;
      case 'annotations':
        if (!c3(v[key])) return false;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c14(v: unknown): boolean {
  return r0(v);
}

function c13(v: unknown): boolean {
  if (!isPlainData(v) || Object.getOwnPropertySymbols(v).length > 0) return false;
  for (const k in v) if (!c14(v[k])) return false;
  return true;
}

function c12(v: unknown): boolean {
  if (v != null && !c13(v)) return false;
  return r1(v);
}

function c11(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'requests':
        if (!c12(v[key])) return false;
        break;
      case 'limits':
        if (!c12(v[key])) return false;
        break;
    }
  }
  return true;
}

function c10(v: unknown): boolean {
  if (v != null && !c11(v)) return false;
  return true;
}

function c18(v: unknown): boolean {
  if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  if (!Number.isSafeInteger(v)) return false;
  if (!(v >= 1)) return false;
  if (!(v <= 65535)) return false;
  return true;
}

function c20(v: unknown): boolean {
  if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  if (!Number.isSafeInteger(v)) return false;
  if (!(v >= 0)) return false;
  if (!(v <= 65535)) return false;
  return true;
}

function c19(v: unknown): boolean {
  if (v != null && !c20(v)) return false;
  return true;
}

function c22(v: unknown): boolean {
  return r2(v);
}

function c21(v: unknown): boolean {
  if (v != null && !c22(v)) return false;
  return true;
}

function c17(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'containerPort':
        if (!c18(v[key])) return false;
        required++;
        break;
      case 'hostPort':
        if (!c19(v[key])) return false;
        break;
      case 'protocol':
        if (!c21(v[key])) return false;
        break;
      case 'hostIP':
        if (!c2(v[key])) return false;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c16(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c17(v[i])) return false;
  return true;
}

function c15(v: unknown): boolean {
  if (v != null && !c16(v)) return false;
  return true;
}

function c24(v: unknown): boolean {
  return r3(v);
}

function c23(v: unknown): boolean {
  if (v != null && !c24(v)) return false;
  return true;
}

function c8(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'name':
        if (!c1(v[key])) return false;
        required++;
        break;
      case 'resources':
        if (!c10(v[key])) return false;
        break;
      case 'ports':
        if (!c15(v[key])) return false;
        break;
      case 'restartPolicy':
        if (!c23(v[key])) return false;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c7(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c8(v[i])) return false;
  if (!(v.length >= 1)) return false;
  return true;
}

function c26(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c8(v[i])) return false;
  return true;
}

function c25(v: unknown): boolean {
  if (v != null && !c26(v)) return false;
  return true;
}

function c28(v: unknown): boolean {
  if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  if (!Number.isSafeInteger(v)) return false;
  return true;
}

function c27(v: unknown): boolean {
  if (v != null && !c28(v)) return false;
  return true;
}

function c30(v: unknown): boolean {
  return r4(v);
}

function c29(v: unknown): boolean {
  if (v != null && !c30(v)) return false;
  return true;
}

function c35(v: unknown): boolean {
  return r5(v);
}

function c34(v: unknown): boolean {
  if (v != null && !c35(v)) return false;
  return true;
}

function c37(v: unknown): boolean {
  return r6(v);
}

function c36(v: unknown): boolean {
  if (v != null && !c37(v)) return false;
  return true;
}

function c33(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'key':
        if (!c2(v[key])) return false;
        break;
      case 'operator':
        if (!c34(v[key])) return false;
        break;
      case 'value':
        if (!c2(v[key])) return false;
        break;
      case 'effect':
        if (!c36(v[key])) return false;
        break;
      case 'tolerationSeconds':
        if (!c27(v[key])) return false;
        break;
    }
  }
  return r7(v);
}

function c32(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c33(v[i])) return false;
  return true;
}

function c31(v: unknown): boolean {
  if (v != null && !c32(v)) return false;
  return true;
}

function c50(v: unknown): boolean {
  return r8(v);
}

function c52(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!(typeof v[i] === 'string')) return false;
  return true;
}

function c51(v: unknown): boolean {
  if (v != null && !c52(v)) return false;
  return true;
}

function c49(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'key':
        if (!(typeof v[key] === 'string')) return false;
        required++;
        break;
      case 'operator':
        if (!c50(v[key])) return false;
        required++;
        break;
      case 'values':
        if (!c51(v[key])) return false;
        break;
    }
  }
  if (required !== 2) return false;
  return true;
}

function c48(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c49(v[i])) return false;
  return true;
}

function c47(v: unknown): boolean {
  if (v != null && !c48(v)) return false;
  return true;
}

function c56(v: unknown): boolean {
  return r9(v);
}

function c55(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'key':
        if (!(typeof v[key] === 'string')) return false;
        required++;
        break;
      case 'operator':
        if (!c56(v[key])) return false;
        required++;
        break;
      case 'values':
        if (!c51(v[key])) return false;
        break;
    }
  }
  if (required !== 2) return false;
  return true;
}

function c54(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c55(v[i])) return false;
  return true;
}

function c53(v: unknown): boolean {
  if (v != null && !c54(v)) return false;
  return true;
}

function c46(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'matchExpressions':
        if (!c47(v[key])) return false;
        break;
      case 'matchFields':
        if (!c53(v[key])) return false;
        break;
    }
  }
  return true;
}

function c45(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c46(v[i])) return false;
  return true;
}

function c44(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'nodeSelectorTerms':
        if (!c45(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c43(v: unknown): boolean {
  if (v != null && !c44(v)) return false;
  return true;
}

function c62(v: unknown): boolean {
  if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  if (!Number.isSafeInteger(v)) return false;
  if (!(v >= 1)) return false;
  if (!(v <= 100)) return false;
  return true;
}

function c61(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'weight':
        if (!c62(v[key])) return false;
        required++;
        break;
      case 'preference':
        if (!c46(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 2) return false;
  return true;
}

function c60(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c61(v[i])) return false;
  return true;
}

function c59(v: unknown): boolean {
  if (v != null && !c60(v)) return false;
  return true;
}

function c42(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'requiredDuringSchedulingIgnoredDuringExecution':
        if (!c43(v[key])) return false;
        break;
      case 'preferredDuringSchedulingIgnoredDuringExecution':
        if (!c59(v[key])) return false;
        break;
    }
  }
  return true;
}

function c41(v: unknown): boolean {
  if (v != null && !c42(v)) return false;
  return true;
}

function c72(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'key':
        if (!(typeof v[key] === 'string')) return false;
        required++;
        break;
      case 'operator':
        if (!(typeof v[key] === 'string')) return false;
        required++;
        break;
      case 'values':
        if (!c51(v[key])) return false;
        break;
    }
  }
  if (required !== 2) return false;
  return true;
}

function c71(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c72(v[i])) return false;
  return true;
}

function c70(v: unknown): boolean {
  if (v != null && !c71(v)) return false;
  return true;
}

function c69(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'matchLabels':
        if (!c3(v[key])) return false;
        break;
      case 'matchExpressions':
        if (!c70(v[key])) return false;
        break;
    }
  }
  return true;
}

function c68(v: unknown): boolean {
  if (v != null && !c69(v)) return false;
  return r10(v);
}

function c67(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'labelSelector':
        if (!c68(v[key])) return false;
        break;
      case 'namespaceSelector':
        if (!c68(v[key])) return false;
        break;
      case 'namespaces':
        if (!c51(v[key])) return false;
        break;
      case 'topologyKey':
        if (!c1(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c66(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c67(v[i])) return false;
  return true;
}

function c65(v: unknown): boolean {
  if (v != null && !c66(v)) return false;
  return true;
}

function c80(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'weight':
        if (!c62(v[key])) return false;
        required++;
        break;
      case 'podAffinityTerm':
        if (!c67(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 2) return false;
  return true;
}

function c79(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c80(v[i])) return false;
  return true;
}

function c78(v: unknown): boolean {
  if (v != null && !c79(v)) return false;
  return true;
}

function c64(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'requiredDuringSchedulingIgnoredDuringExecution':
        if (!c65(v[key])) return false;
        break;
      case 'preferredDuringSchedulingIgnoredDuringExecution':
        if (!c78(v[key])) return false;
        break;
    }
  }
  return true;
}

function c63(v: unknown): boolean {
  if (v != null && !c64(v)) return false;
  return true;
}

function c40(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'nodeAffinity':
        if (!c41(v[key])) return false;
        break;
      case 'podAffinity':
        if (!c63(v[key])) return false;
        break;
      case 'podAntiAffinity':
        if (!c63(v[key])) return false;
        break;
    }
  }
  return true;
}

function c39(v: unknown): boolean {
  if (v != null && !c40(v)) return false;
  return true;
}

function c85(v: unknown): boolean {
  if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  if (!Number.isSafeInteger(v)) return false;
  if (!(v >= 1)) return false;
  return true;
}

function c87(v: unknown): boolean {
  return r11(v);
}

function c88(v: unknown): boolean {
  if (v != null && !c85(v)) return false;
  return true;
}

function c91(v: unknown): boolean {
  return r12(v);
}

function c90(v: unknown): boolean {
  if (v != null && !c91(v)) return false;
  return true;
}

function c84(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'maxSkew':
        if (!c85(v[key])) return false;
        required++;
        break;
      case 'topologyKey':
        if (!c1(v[key])) return false;
        required++;
        break;
      case 'whenUnsatisfiable':
        if (!c87(v[key])) return false;
        required++;
        break;
      case 'labelSelector':
        if (!c68(v[key])) return false;
        break;
      case 'minDomains':
        if (!c88(v[key])) return false;
        break;
      case 'nodeAffinityPolicy':
        if (!c90(v[key])) return false;
        break;
      case 'nodeTaintsPolicy':
        if (!c90(v[key])) return false;
        break;
      case 'matchLabelKeys':
        if (!c51(v[key])) return false;
        break;
    }
  }
  if (required !== 3) return false;
  return true;
}

function c83(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c84(v[i])) return false;
  return true;
}

function c82(v: unknown): boolean {
  if (v != null && !c83(v)) return false;
  return true;
}

function c6(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'containers':
        if (!c7(v[key])) return false;
        required++;
        break;
      case 'initContainers':
        if (!c25(v[key])) return false;
        break;
      case 'overhead':
        if (!c12(v[key])) return false;
        break;
      case 'resources':
        if (!c10(v[key])) return false;
        break;
      case 'nodeSelector':
        if (!c3(v[key])) return false;
        break;
      case 'nodeName':
        if (!c2(v[key])) return false;
        break;
      case 'schedulerName':
        if (!c2(v[key])) return false;
        break;
      case 'priority':
        if (!c27(v[key])) return false;
        break;
      case 'priorityClassName':
        if (!c2(v[key])) return false;
        break;
      case 'preemptionPolicy':
        if (!c29(v[key])) return false;
        break;
      case 'tolerations':
        if (!c31(v[key])) return false;
        break;
      case 'affinity':
        if (!c39(v[key])) return false;
        break;
      case 'topologySpreadConstraints':
        if (!c82(v[key])) return false;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c5(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c6(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c103(v: unknown): boolean {
  return r13(v);
}

function c101(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'key':
        if (!c1(v[key])) return false;
        required++;
        break;
      case 'value':
        if (!c2(v[key])) return false;
        break;
      case 'effect':
        if (!c103(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 2) return false;
  return true;
}

function c100(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c101(v[i])) return false;
  return true;
}

function c99(v: unknown): boolean {
  if (v != null && !c100(v)) return false;
  return true;
}

function c104(v: unknown): boolean {
  if (v != null && !(typeof v === 'boolean')) return false;
  return true;
}

function c98(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'taints':
        if (!c99(v[key])) return false;
        break;
      case 'unschedulable':
        if (!c104(v[key])) return false;
        break;
    }
  }
  return true;
}

function c97(v: unknown): boolean {
  if (v != null && !c98(v)) return false;
  return true;
}

function c106(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'capacity':
        if (!c12(v[key])) return false;
        break;
      case 'allocatable':
        if (!c12(v[key])) return false;
        break;
    }
  }
  return true;
}

function c105(v: unknown): boolean {
  if (v != null && !c106(v)) return false;
  return true;
}

function c96(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c97(v[key])) return false;
        break;
      case 'status':
        if (!c105(v[key])) return false;
        break;
    }
  }
  return true;
}

function c111(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'requests':
        if (!c12(v[key])) return false;
        break;
    }
  }
  return true;
}

function c110(v: unknown): boolean {
  if (v != null && !c111(v)) return false;
  return true;
}

function c109(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'resources':
        if (!c110(v[key])) return false;
        break;
      case 'selector':
        if (!c68(v[key])) return false;
        break;
    }
  }
  return true;
}

function c108(v: unknown): boolean {
  if (v != null && !c109(v)) return false;
  return true;
}

function c107(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c108(v[key])) return false;
        break;
    }
  }
  return true;
}

function c116(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'required':
        if (!c43(v[key])) return false;
        break;
    }
  }
  return true;
}

function c115(v: unknown): boolean {
  if (v != null && !c116(v)) return false;
  return true;
}

function c114(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'capacity':
        if (!c12(v[key])) return false;
        break;
      case 'nodeAffinity':
        if (!c115(v[key])) return false;
        break;
    }
  }
  return true;
}

function c113(v: unknown): boolean {
  if (v != null && !c114(v)) return false;
  return true;
}

function c112(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c113(v[key])) return false;
        break;
    }
  }
  return true;
}

function c118(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'value':
        if (!c28(v[key])) return false;
        required++;
        break;
      case 'preemptionPolicy':
        if (!c29(v[key])) return false;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c123(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'selector':
        if (!c68(v[key])) return false;
        break;
    }
  }
  return true;
}

function c122(v: unknown): boolean {
  if (v != null && !c123(v)) return false;
  return true;
}

function c121(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c122(v[key])) return false;
        break;
    }
  }
  return true;
}

function c126(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'selector':
        if (!c3(v[key])) return false;
        break;
    }
  }
  return true;
}

function c125(v: unknown): boolean {
  if (v != null && !c126(v)) return false;
  return true;
}

function c124(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c125(v[key])) return false;
        break;
    }
  }
  return true;
}

function c133(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'labels':
        if (!c3(v[key])) return false;
        break;
    }
  }
  return true;
}

function c132(v: unknown): boolean {
  if (v != null && !c133(v)) return false;
  return true;
}

function c131(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'metadata':
        if (!c132(v[key])) return false;
        break;
      case 'spec':
        if (!c6(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c130(v: unknown): boolean {
  if (v != null && !c131(v)) return false;
  return true;
}

function c129(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'selector':
        if (!c3(v[key])) return false;
        break;
      case 'template':
        if (!c130(v[key])) return false;
        break;
    }
  }
  return true;
}

function c128(v: unknown): boolean {
  if (v != null && !c129(v)) return false;
  return true;
}

function c127(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c128(v[key])) return false;
        break;
    }
  }
  return true;
}

function c135(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'selector':
        if (!c68(v[key])) return false;
        break;
      case 'template':
        if (!c130(v[key])) return false;
        break;
    }
  }
  return true;
}

function c134(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c135(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c142(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'jobTemplate':
        if (!c134(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c141(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c142(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c147(v: unknown): boolean {
  return r14(v);
}

function c146(v: unknown): boolean {
  if (v != null && !c147(v)) return false;
  return true;
}

function c149(v: unknown): boolean {
  return r15(v);
}

function c148(v: unknown): boolean {
  if (v != null && !c149(v)) return false;
  return true;
}

function c144(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'provisioner':
        if (!c1(v[key])) return false;
        required++;
        break;
      case 'reclaimPolicy':
        if (!c146(v[key])) return false;
        break;
      case 'volumeBindingMode':
        if (!c148(v[key])) return false;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c152(v: unknown): boolean {
  if (v != null && !c14(v)) return false;
  return true;
}

function c150(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'storageClassName':
        if (!c1(v[key])) return false;
        required++;
        break;
      case 'nodeTopology':
        if (!c68(v[key])) return false;
        break;
      case 'capacity':
        if (!c152(v[key])) return false;
        break;
      case 'maximumVolumeSize':
        if (!c152(v[key])) return false;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c157(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'max':
        if (!c12(v[key])) return false;
        break;
      case 'min':
        if (!c12(v[key])) return false;
        break;
      case 'default':
        if (!c12(v[key])) return false;
        break;
      case 'defaultRequest':
        if (!c12(v[key])) return false;
        break;
      case 'maxLimitRequestRatio':
        if (!c12(v[key])) return false;
        break;
    }
  }
  return true;
}

function c156(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c157(v[i])) return false;
  return true;
}

function c155(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'limits':
        if (!c156(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c154(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c155(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c160(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'hard':
        if (!c12(v[key])) return false;
        break;
    }
  }
  return true;
}

function c159(v: unknown): boolean {
  if (v != null && !c160(v)) return false;
  return true;
}

function c158(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c159(v[key])) return false;
        break;
    }
  }
  return true;
}

function c164(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'podFixed':
        if (!c12(v[key])) return false;
        break;
    }
  }
  return true;
}

function c163(v: unknown): boolean {
  if (v != null && !c164(v)) return false;
  return true;
}

function c161(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'handler':
        if (!c1(v[key])) return false;
        required++;
        break;
      case 'overhead':
        if (!c163(v[key])) return false;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c165(v: unknown): boolean {
  if (!isObject(v)) return false;
  return true;
}

function c175(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'name':
        if (!c1(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c174(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!c175(v[i])) return false;
  return true;
}

function c173(v: unknown): boolean {
  if (v != null && !c174(v)) return false;
  return true;
}

function c172(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'requests':
        if (!c173(v[key])) return false;
        break;
    }
  }
  return true;
}

function c171(v: unknown): boolean {
  if (v != null && !c172(v)) return false;
  return true;
}

function c170(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'devices':
        if (!c171(v[key])) return false;
        break;
    }
  }
  return true;
}

function c169(v: unknown): boolean {
  if (v != null && !c170(v)) return false;
  return true;
}

function c180(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'nodeSelector':
        if (!c43(v[key])) return false;
        break;
    }
  }
  return true;
}

function c179(v: unknown): boolean {
  if (v != null && !c180(v)) return false;
  return true;
}

function c178(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'allocation':
        if (!c179(v[key])) return false;
        break;
    }
  }
  return true;
}

function c177(v: unknown): boolean {
  if (v != null && !c178(v)) return false;
  return true;
}

function c168(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c169(v[key])) return false;
        break;
      case 'status':
        if (!c177(v[key])) return false;
        break;
    }
  }
  return true;
}

function c185(v: unknown): boolean {
  if (v != null && !c165(v)) return false;
  return true;
}

function c184(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c185(v[key])) return false;
        break;
    }
  }
  return true;
}

function c183(v: unknown): boolean {
  if (v != null && !c184(v)) return false;
  return true;
}

function c182(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c183(v[key])) return false;
        break;
    }
  }
  return true;
}

function c192(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'key':
        if (!c1(v[key])) return false;
        required++;
        break;
      case 'effect':
        if (!c1(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 2) return false;
  return true;
}

function c189(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'deviceSelector':
        if (!c185(v[key])) return false;
        break;
      case 'taint':
        if (!c192(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c188(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c189(v[key])) return false;
        required++;
        break;
    }
  }
  if (required !== 1) return false;
  return true;
}

function c197(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'nodeName':
        if (!c2(v[key])) return false;
        break;
      case 'allNodes':
        if (!c104(v[key])) return false;
        break;
      case 'nodeSelector':
        if (!c43(v[key])) return false;
        break;
    }
  }
  return true;
}

function c196(v: unknown): boolean {
  if (v != null && !c197(v)) return false;
  return true;
}

function c195(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) {
    switch (key) {
      case 'spec':
        if (!c196(v[key])) return false;
        break;
    }
  }
  return true;
}

/** Whether metadataSchema would accept the value (false: maybe not; ask zod). */
export const METADATA_CHECK: (value: unknown) => boolean = c0;

/** Per kind: whether KIND_SCHEMAS[kind] would accept the value (false: maybe not; ask zod). */
export const KIND_CHECKS: Readonly<Record<string, (value: unknown) => boolean>> = {
  Pod: c5,
  Node: c96,
  PersistentVolumeClaim: c107,
  PersistentVolume: c112,
  PriorityClass: c118,
  PodDisruptionBudget: c121,
  Service: c124,
  ReplicationController: c127,
  ReplicaSet: c134,
  Deployment: c134,
  StatefulSet: c134,
  DaemonSet: c134,
  Job: c134,
  CronJob: c141,
  StorageClass: c144,
  CSIStorageCapacity: c150,
  LimitRange: c154,
  ResourceQuota: c158,
  RuntimeClass: c161,
  Namespace: c165,
  CSINode: c165,
  CSIDriver: c165,
  ResourceClaim: c168,
  ResourceClaimTemplate: c182,
  DeviceClass: c165,
  DeviceTaintRule: c188,
  ResourceSlice: c195,
};
