// Name/value syntax checks shared by label selectors and resource-name helpers
// (apimachinery util/validation semantics: IsQualifiedName, IsValidLabelValue).

const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Returns the problems with `value` as a qualified name ("prefix/name" or "name"); empty when valid. */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const [prefix, n] = parts;
    name = n;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
    else if (!dns1123Subdomain.test(prefix)) errs.push('prefix part must be a lowercase RFC 1123 subdomain');
  } else {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS subdomain prefix and '/'",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  else if (!qualifiedNamePart.test(name))
    errs.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    );
  return errs;
}

export function isQualifiedName(value: string): boolean {
  return qualifiedNameErrors(value).length === 0;
}

/** Returns the problems with `value` as a label value; empty when valid (the empty string is valid). */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!labelValue.test(value))
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    );
  return errs;
}

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1035Label = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** IsDNS1123Subdomain: the rule for most object names and for node names. */
export function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!dns1123Subdomain.test(value))
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
    );
  return errs;
}

/** IsDNS1123Label: namespaces. */
export function dns1123LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1123Label.test(value))
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
    );
  return errs;
}

/** IsDNS1035Label: service names. */
export function dns1035LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1035Label.test(value))
    errs.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
    );
  return errs;
}
