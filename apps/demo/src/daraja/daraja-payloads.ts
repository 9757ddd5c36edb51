/**
 * The payloads Safaricom's Daraja API sends and answers, as its documentation describes them
 * (developer.safaricom.co.ke: "Authorization", "M-Pesa Express" (STK push and query) and
 * "Customer To Business (C2B)"). Built here once so that the sandbox and the tests agree.
 */

/** STK result codes of the documentation's list that the sandbox produces. */
export const STK_RESULT = {
  success: { code: 0, desc: 'The service request is processed successfully.' },
  insufficientFunds: { code: 1, desc: 'The balance is insufficient for the transaction.' },
  cancelled: { code: 1032, desc: 'Request cancelled by user' },
  timeout: { code: 1037, desc: 'DS timeout user cannot be reached' },
  wrongPin: { code: 2001, desc: 'The initiator information is invalid.' },
} as const;

export type StkOutcome = keyof typeof STK_RESULT;

/** `YYYYMMDDHHmmss` in East Africa Time (UTC+3, no daylight saving), Daraja's timestamp format. */
export function darajaTimestamp(at: Date = new Date()): string {
  const eat = new Date(at.getTime() + 3 * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `${eat.getUTCFullYear()}${p(eat.getUTCMonth() + 1)}${p(eat.getUTCDate())}` +
    `${p(eat.getUTCHours())}${p(eat.getUTCMinutes())}${p(eat.getUTCSeconds())}`
  );
}

/** Password of the STK push and query: base64(Shortcode + Passkey + Timestamp). */
export function stkPassword(shortcode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortcode}${passkey}${timestamp}`).toString('base64');
}

export interface StkCallbackFields {
  merchantRequestId: string;
  checkoutRequestId: string;
  resultCode: number;
  resultDesc: string;
  /** Only on success (ResultCode 0). */
  metadata?: { amount: number; receipt: string; transactionDate: string; phoneNumber: string };
}

/** The body Daraja POSTs to the push's CallBackURL. */
export function stkCallbackBody(f: StkCallbackFields) {
  return {
    Body: {
      stkCallback: {
        MerchantRequestID: f.merchantRequestId,
        CheckoutRequestID: f.checkoutRequestId,
        ResultCode: f.resultCode,
        ResultDesc: f.resultDesc,
        ...(f.metadata
          ? {
              CallbackMetadata: {
                Item: [
                  { Name: 'Amount', Value: f.metadata.amount },
                  { Name: 'MpesaReceiptNumber', Value: f.metadata.receipt },
                  { Name: 'Balance' },
                  { Name: 'TransactionDate', Value: Number(f.metadata.transactionDate) },
                  { Name: 'PhoneNumber', Value: Number(f.metadata.phoneNumber) },
                ],
              },
            }
          : {}),
      },
    },
  };
}

export interface C2bFields {
  transId: string;
  transTime: string;
  amount: number;
  shortcode: string;
  billRefNumber: string;
  msisdn: string;
  firstName: string;
}

/** The body Daraja POSTs to the ValidationURL and then the ConfirmationURL of a paybill payment. */
export function c2bBody(f: C2bFields) {
  return {
    TransactionType: 'Pay Bill',
    TransID: f.transId,
    TransTime: f.transTime,
    TransAmount: f.amount.toFixed(2),
    BusinessShortCode: f.shortcode,
    BillRefNumber: f.billRefNumber,
    InvoiceNumber: '',
    OrgAccountBalance: '',
    ThirdPartyTransID: '',
    MSISDN: f.msisdn,
    FirstName: f.firstName,
    MiddleName: '',
    LastName: '',
  };
}

/** Daraja's error body (`{requestId, errorCode, errorMessage}`). */
export function darajaError(requestId: string, errorCode: string, errorMessage: string) {
  return { requestId, errorCode, errorMessage };
}
