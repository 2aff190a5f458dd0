// A bot and a manual owner on one okx account, SIGKILLed with orders in flight (owners-sigkill.ts).
import { describeOwnersSigkill, OWNER_VENUES } from './owners-sigkill.js';

describeOwnersSigkill(OWNER_VENUES[1]);
