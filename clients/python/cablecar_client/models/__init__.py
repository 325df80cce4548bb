""" Contains all the data models used in inputs/outputs """

from .action_body import ActionBody
from .action_body_field import ActionBodyField
from .action_body_field_schema import ActionBodyFieldSchema
from .action_result import ActionResult
from .audit import Audit
from .audit_check import AuditCheck
from .audit_verdict import AuditVerdict
from .batch import Batch
from .batch_created import BatchCreated
from .batch_game import BatchGame
from .batch_game_created import BatchGameCreated
from .batch_results import BatchResults
from .batch_summary import BatchSummary
from .batches_page import BatchesPage
from .bots_health import BotsHealth
from .cable_car_board import CableCarBoard
from .cable_car_board_route_cards import CableCarBoardRouteCards
from .cable_car_board_start_hand import CableCarBoardStartHand
from .cable_car_grid import CableCarGrid
from .cable_car_line import CableCarLine
from .cable_car_line_id import CableCarLineId
from .cable_car_me import CableCarMe
from .cable_car_player import CableCarPlayer
from .cable_car_player_result import CableCarPlayerResult
from .cable_car_result import CableCarResult
from .cable_car_stop import CableCarStop
from .cable_car_table import CableCarTable
from .cable_car_terminal import CableCarTerminal
from .cable_car_tile_id import CableCarTileId
from .cable_car_tile_type import CableCarTileType
from .cable_car_view import CableCarView
from .cable_car_view_stops import CableCarViewStops
from .chain_head import ChainHead
from .claim_route import ClaimRoute
from .claim_route_cards import ClaimRouteCards
from .claim_route_type import ClaimRouteType
from .clock_time_control import ClockTimeControl
from .component_health import ComponentHealth
from .create_cable_car_batch import CreateCableCarBatch
from .create_cable_car_game import CreateCableCarGame
from .create_organiser import CreateOrganiser
from .create_ttr_sf_batch import CreateTtrSfBatch
from .create_ttr_sf_game import CreateTtrSfGame
from .create_webhook import CreateWebhook
from .csv_result_row import CsvResultRow
from .csv_result_row_winner import CsvResultRowWinner
from .damaged_table import DamagedTable
from .deliveries_page import DeliveriesPage
from .delivery import Delivery
from .delivery_attempt import DeliveryAttempt
from .draw_card import DrawCard
from .draw_card_source import DrawCardSource
from .draw_card_type import DrawCardType
from .draw_tickets import DrawTickets
from .draw_tickets_type import DrawTicketsType
from .draw_tile import DrawTile
from .draw_tile_source import DrawTileSource
from .draw_tile_type import DrawTileType
from .edge import Edge
from .empty_body import EmptyBody
from .event import Event
from .event_catalogue import EventCatalogue
from .event_catalogue_entry import EventCatalogueEntry
from .event_catalogue_entry_schema import EventCatalogueEntrySchema
from .event_envelope import EventEnvelope
from .event_envelope_payload import EventEnvelopePayload
from .event_payload import EventPayload
from .events_page import EventsPage
from .export import Export
from .export_event_line import ExportEventLine
from .export_game import ExportGame
from .export_header_line import ExportHeaderLine
from .export_seed import ExportSeed
from .field_error import FieldError
from .game_created import GameCreated
from .game_status import GameStatus
from .game_summary import GameSummary
from .game_type_id import GameTypeId
from .game_type_info import GameTypeInfo
from .game_types import GameTypes
from .games_page import GamesPage
from .health import Health
from .keep_tickets import KeepTickets
from .keep_tickets_type import KeepTicketsType
from .lay_tiles import LayTiles
from .lay_tiles_type import LayTilesType
from .legal_actions import LegalActions
from .log_checkpoint import LogCheckpoint
from .log_consistency import LogConsistency
from .log_health import LogHealth
from .log_inclusion import LogInclusion
from .no_time_control import NoTimeControl
from .open_api_document import OpenApiDocument
from .open_api_document_info import OpenApiDocumentInfo
from .open_api_document_paths import OpenApiDocumentPaths
from .organiser import Organiser
from .organiser_created import OrganiserCreated
from .per_turn_time_control import PerTurnTimeControl
from .place_souvenir_stack import PlaceSouvenirStack
from .place_souvenir_stack_type import PlaceSouvenirStackType
from .placed_tile import PlacedTile
from .placement import Placement
from .player_counts import PlayerCounts
from .player_in import PlayerIn
from .player_result import PlayerResult
from .player_standing import PlayerStanding
from .problem import Problem
from .problem_outcome import ProblemOutcome
from .quarantined_run import QuarantinedRun
from .recorded_quarantine import RecordedQuarantine
from .resign import Resign
from .resign_type import ResignType
from .ride import Ride
from .roll import Roll
from .roll_type import RollType
from .seat_clock import SeatClock
from .seat_name import SeatName
from .seat_token import SeatToken
from .seat_token_rotated import SeatTokenRotated
from .signing_key import SigningKey
from .signing_key_algorithm import SigningKeyAlgorithm
from .signing_keys import SigningKeys
from .souvenir_stack import SouvenirStack
from .sse_message import SseMessage
from .standings import Standings
from .start_ride import StartRide
from .start_ride_type import StartRideType
from .status_counts import StatusCounts
from .stream_end import StreamEnd
from .stream_end_status import StreamEndStatus
from .stream_ticket import StreamTicket
from .stream_view import StreamView
from .table_result import TableResult
from .tram import Tram
from .ttr_card import TtrCard
from .ttr_kept_ticket import TtrKeptTicket
from .ttr_location import TtrLocation
from .ttr_player_result import TtrPlayerResult
from .ttr_route import TtrRoute
from .ttr_sf_board import TtrSfBoard
from .ttr_sf_board_route_points import TtrSfBoardRoutePoints
from .ttr_sf_board_souvenir_points import TtrSfBoardSouvenirPoints
from .ttr_sf_board_transport_cards import TtrSfBoardTransportCards
from .ttr_sf_me import TtrSfMe
from .ttr_sf_me_hand import TtrSfMeHand
from .ttr_sf_player import TtrSfPlayer
from .ttr_sf_player_hand import TtrSfPlayerHand
from .ttr_sf_result import TtrSfResult
from .ttr_sf_table import TtrSfTable
from .ttr_sf_view import TtrSfView
from .ttr_sf_view_claimed import TtrSfViewClaimed
from .ttr_sf_view_souvenir_stacks import TtrSfViewSouvenirStacks
from .ttr_sf_view_souvenirs_in_box import TtrSfViewSouvenirsInBox
from .ttr_ticket import TtrTicket
from .ttr_ticket_result import TtrTicketResult
from .webhook import Webhook
from .webhook_created import WebhookCreated
from .webhook_delivery import WebhookDelivery
from .webhook_event import WebhookEvent
from .webhook_game import WebhookGame
from .webhook_game_players_item import WebhookGamePlayersItem
from .webhook_seat_out import WebhookSeatOut
from .webhooks import Webhooks

__all__ = (
    "ActionBody",
    "ActionBodyField",
    "ActionBodyFieldSchema",
    "ActionResult",
    "Audit",
    "AuditCheck",
    "AuditVerdict",
    "Batch",
    "BatchCreated",
    "BatchesPage",
    "BatchGame",
    "BatchGameCreated",
    "BatchResults",
    "BatchSummary",
    "BotsHealth",
    "CableCarBoard",
    "CableCarBoardRouteCards",
    "CableCarBoardStartHand",
    "CableCarGrid",
    "CableCarLine",
    "CableCarLineId",
    "CableCarMe",
    "CableCarPlayer",
    "CableCarPlayerResult",
    "CableCarResult",
    "CableCarStop",
    "CableCarTable",
    "CableCarTerminal",
    "CableCarTileId",
    "CableCarTileType",
    "CableCarView",
    "CableCarViewStops",
    "ChainHead",
    "ClaimRoute",
    "ClaimRouteCards",
    "ClaimRouteType",
    "ClockTimeControl",
    "ComponentHealth",
    "CreateCableCarBatch",
    "CreateCableCarGame",
    "CreateOrganiser",
    "CreateTtrSfBatch",
    "CreateTtrSfGame",
    "CreateWebhook",
    "CsvResultRow",
    "CsvResultRowWinner",
    "DamagedTable",
    "DeliveriesPage",
    "Delivery",
    "DeliveryAttempt",
    "DrawCard",
    "DrawCardSource",
    "DrawCardType",
    "DrawTickets",
    "DrawTicketsType",
    "DrawTile",
    "DrawTileSource",
    "DrawTileType",
    "Edge",
    "EmptyBody",
    "Event",
    "EventCatalogue",
    "EventCatalogueEntry",
    "EventCatalogueEntrySchema",
    "EventEnvelope",
    "EventEnvelopePayload",
    "EventPayload",
    "EventsPage",
    "Export",
    "ExportEventLine",
    "ExportGame",
    "ExportHeaderLine",
    "ExportSeed",
    "FieldError",
    "GameCreated",
    "GamesPage",
    "GameStatus",
    "GameSummary",
    "GameTypeId",
    "GameTypeInfo",
    "GameTypes",
    "Health",
    "KeepTickets",
    "KeepTicketsType",
    "LayTiles",
    "LayTilesType",
    "LegalActions",
    "LogCheckpoint",
    "LogConsistency",
    "LogHealth",
    "LogInclusion",
    "NoTimeControl",
    "OpenApiDocument",
    "OpenApiDocumentInfo",
    "OpenApiDocumentPaths",
    "Organiser",
    "OrganiserCreated",
    "PerTurnTimeControl",
    "PlacedTile",
    "Placement",
    "PlaceSouvenirStack",
    "PlaceSouvenirStackType",
    "PlayerCounts",
    "PlayerIn",
    "PlayerResult",
    "PlayerStanding",
    "Problem",
    "ProblemOutcome",
    "QuarantinedRun",
    "RecordedQuarantine",
    "Resign",
    "ResignType",
    "Ride",
    "Roll",
    "RollType",
    "SeatClock",
    "SeatName",
    "SeatToken",
    "SeatTokenRotated",
    "SigningKey",
    "SigningKeyAlgorithm",
    "SigningKeys",
    "SouvenirStack",
    "SseMessage",
    "Standings",
    "StartRide",
    "StartRideType",
    "StatusCounts",
    "StreamEnd",
    "StreamEndStatus",
    "StreamTicket",
    "StreamView",
    "TableResult",
    "Tram",
    "TtrCard",
    "TtrKeptTicket",
    "TtrLocation",
    "TtrPlayerResult",
    "TtrRoute",
    "TtrSfBoard",
    "TtrSfBoardRoutePoints",
    "TtrSfBoardSouvenirPoints",
    "TtrSfBoardTransportCards",
    "TtrSfMe",
    "TtrSfMeHand",
    "TtrSfPlayer",
    "TtrSfPlayerHand",
    "TtrSfResult",
    "TtrSfTable",
    "TtrSfView",
    "TtrSfViewClaimed",
    "TtrSfViewSouvenirsInBox",
    "TtrSfViewSouvenirStacks",
    "TtrTicket",
    "TtrTicketResult",
    "Webhook",
    "WebhookCreated",
    "WebhookDelivery",
    "WebhookEvent",
    "WebhookGame",
    "WebhookGamePlayersItem",
    "Webhooks",
    "WebhookSeatOut",
)
