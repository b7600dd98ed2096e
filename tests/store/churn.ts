/** The churn's pods: pod n is churn-n with a unique IP, so a stored row can be checked alone. */
export const churnName = (n: number) => `churn-${n}`;
export const churnIp = (n: number) => `10.${100 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
