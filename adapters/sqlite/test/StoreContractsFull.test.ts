/** The quote store and outbox contracts against SQLite files with synchronous=FULL, the default. */
import { storeContractsWith } from "./StoreContractsWith.js"

storeContractsWith("FULL")
