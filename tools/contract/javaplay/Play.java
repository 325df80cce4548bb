// javaplay plays one whole game of each type against a live server through the Java client that
// openapi-generator's `java --library native` target writes from service/openapi.yaml (issue 38; the options
// scripts/check-generators.sh gives it: openApiNullable=false, useJakartaEe=true), then reads each game's event
// page, export (JSON and NDJSON) and audit through it (not its stream: see below).
//
// scripts/check-generators.sh compiles it with javac beside the generated sources and runs it with java on the
// class path it compiles the client with (Debian's jackson, the generator jar's jsr310 classes), then runs it
// with java on the generator's own jar instead (its jackson-core, -databind and -datatype-jsr310, of one
// release: the jsr310 classes do not run on Debian's older databind):
//
//     java -cp ... Play http://127.0.0.1:8000 [max-moves]
//
// Policy: claim_route, lay_tiles or roll when legal, else the first legal action (never resign), as axiosplay.
// Exit status 0 only when both games reached `finished` and every read agreed with them.
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import org.openapitools.client.ApiClient;
import org.openapitools.client.ApiException;
import org.openapitools.client.api.ActionsApi;
import org.openapitools.client.api.AuditApi;
import org.openapitools.client.api.EventsApi;
import org.openapitools.client.api.GamesApi;
import org.openapitools.client.model.ActionRequest;
import org.openapitools.client.model.Audit;
import org.openapitools.client.model.CableCarView;
import org.openapitools.client.model.CreateCableCarGame;
import org.openapitools.client.model.CreateGame;
import org.openapitools.client.model.CreateTtrSfGame;
import org.openapitools.client.model.EventsPage;
import org.openapitools.client.model.Export;
import org.openapitools.client.model.GameCreated;
import org.openapitools.client.model.GameView;
import org.openapitools.client.model.LegalActions;
import org.openapitools.client.model.PlayerIn;
import org.openapitools.client.model.TtrSfView;

public class Play {
  static URI base;

  static ApiClient client(String token) {
    ApiClient c = new ApiClient().setScheme(base.getScheme()).setHost(base.getHost()).setPort(base.getPort()).setBasePath("");
    if (token != null) c.setRequestInterceptor(b -> b.header("Authorization", "Bearer " + token));
    return c;
  }

  /** status, version, active seats and whether there is a result, whichever view type the game has */
  record View(String status, int version, List<Integer> activeSeats, boolean hasResult) {}

  static View view(GameView v) {
    Object o = v.getActualInstance();
    if (o instanceof CableCarView c) return new View(c.getStatus(), c.getVersion(), c.getActiveSeats(), c.getResult() != null);
    if (o instanceof TtrSfView t) return new View(t.getStatus(), t.getVersion(), t.getActiveSeats(), t.getResult() != null);
    throw new IllegalStateException("a view of neither type: " + o);
  }

  static String type(ApiClient c, ActionRequest a) {
    return c.getObjectMapper().valueToTree(a.getActualInstance()).get("type").asText();
  }

  static ActionRequest choose(ApiClient c, List<ActionRequest> actions) {
    for (ActionRequest a : actions) {
      String t = type(c, a);
      if (t.equals("claim_route") || t.equals("lay_tiles") || t.equals("roll")) return a;
    }
    for (ActionRequest a : actions) if (!type(c, a).equals("resign")) return a;
    throw new IllegalStateException("no legal action but resign for an active seat");
  }

  static void check(boolean ok, String what) {
    if (!ok) throw new IllegalStateException(what);
  }

  static int play(String gameType, int maxMoves) throws Exception {
    List<PlayerIn> players = List.of(new PlayerIn().name("Ada"), new PlayerIn().name("Bo"));
    CreateGame body = gameType.equals("cable-car")
        ? new CreateGame(new CreateCableCarGame().type(CreateCableCarGame.TypeEnum.fromValue(gameType)).players(players).seed("javaplay"))
        : new CreateGame(new CreateTtrSfGame().type(CreateTtrSfGame.TypeEnum.fromValue(gameType)).players(players).seed("javaplay"));
    GamesApi games = new GamesApi(client(null));
    GameCreated created = games.createGame(body, null);
    int moves = 0;
    View v;
    for (;;) {
      v = view(games.getGame(created.getId(), null, null));
      if (v.status().equals("finished")) break;
      check(moves < maxMoves, "not finished after " + maxMoves + " moves");
      check(!v.activeSeats().isEmpty(), "status " + v.status() + " with no active seat");
      ApiClient seat = client(created.getSeats().get(v.activeSeats().get(0)).getToken());
      ActionsApi actions = new ActionsApi(seat);
      LegalActions legal = actions.getLegalActions(created.getId(), null, null, null, null, null);
      actions.postAction(created.getId(), choose(seat, legal.getActions()), null);
      moves += 1;
    }
    check(v.hasResult(), "finished with no result");
    // the event page: each entry with the game's version and whose turn it is (nobody's: it is over)
    EventsApi events = new EventsApi(client(null));
    EventsPage page = events.listEvents(created.getId(), null, null, 3);
    check(page.getEvents().stream().map(e -> e.getSeq()).toList().equals(List.of(1, 2, 3)), "event page: not events 1 to 3");
    final int version = v.version();
    check(page.getEvents().stream().allMatch(e -> e.getVersion() == version && e.getActiveSeats().isEmpty()),
        "event page: entries without the game's version and active_seats");
    // not the stream: this client reads every answer as JSON, also text/event-stream (its streamEvents fails
    // on the first line, `retry: 2000`); a Java program would read the stream with java.net.http directly
    AuditApi audits = new AuditApi(client(null));
    Export record = audits.exportGame(created.getId(), null, null);
    check(record.getEvents().size() == version && record.getResult() != null, "export: not every event");
    List<String> lines = Files.readAllLines(audits.exportGameNdjson(created.getId(), null).toPath());
    check(lines.size() == version + 1 && lines.get(0).contains("\"header\""), "export NDJSON: not header and events");
    Audit audit = audits.auditGame(created.getId());
    check(audit.getOk(), "audit: " + String.join("; ", audit.getProblems()));
    return moves;
  }

  public static void main(String[] args) {
    if (args.length < 1) {
      System.err.println("usage: java Play BASE_URL [max-moves]");
      System.exit(2);
    }
    base = URI.create(args[0]);
    int maxMoves = args.length > 1 ? Integer.parseInt(args[1]) : 3000;
    for (String gameType : List.of("cable-car", "ttr-sf")) {
      try {
        int moves = play(gameType, maxMoves);
        System.out.println("java --library native: played a whole " + gameType + " game, " + moves
            + " moves, and read its events, export (JSON and NDJSON) and audit through the generated client");
      } catch (ApiException e) {
        System.err.println("java --library native: " + gameType + ": " + e + " (" + e.getCode() + " " + e.getResponseBody() + ")");
        System.exit(1);
      } catch (Exception e) {
        System.err.println("java --library native: " + gameType + ": " + e);
        e.printStackTrace();
        System.exit(1);
      }
    }
  }
}
