/**
 * Path keys that send every call to one URL and name the operation in a literal query or fragment: AWS query APIs
 * (`/#Action=DescribeClusters`, `/?Action=RunInstances`) and AWS JSON APIs, whose target header names service and
 * action (`/#X-Amz-Target=AWSCognitoIdentityProviderService.AddCustomAttributes`).
 */
const RPC_ACTION = /[?#&](?:(?:action|operation|method|op)=|x-amz-target=[A-Za-z0-9_]*\.)([A-Za-z][A-Za-z0-9]*)/i;

/** The action an RPC path key names (`DescribeClusters`), if it names one. */
export function rpcAction(path: string): string | undefined {
  return RPC_ACTION.exec(path)?.[1];
}

/** Words that qualify an RPC action before its verb (`AdminGetDevice` gets a device, as an administrator). */
export const RPC_QUALIFIERS: ReadonlySet<string> = new Set(['admin', 'batch', 'bulk', 'async']);
